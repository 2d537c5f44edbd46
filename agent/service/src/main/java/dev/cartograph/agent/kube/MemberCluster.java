package dev.cartograph.agent.kube;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.kube.KartaWatch;
import dev.cartograph.kube.Kartas;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The member cluster the agent serves, as the adapters that reach it over one client: the cache that reads
 * it ({@link ClusterCache}), the applier that writes to it ({@link KubeApplier}), and its {@code kartas.run.ai}
 * objects laid over the built-in catalog. The client stays its owner's to close. Thread-safe.
 */
public final class MemberCluster {
    /** Tries per write, the first included; transient failures back off from {@link #FIRST_WRITE_BACKOFF}. */
    private static final int WRITE_ATTEMPTS = 4;

    private static final Duration FIRST_WRITE_BACKOFF = Duration.ofMillis(200);

    private final KubernetesClient client;

    public MemberCluster(KubernetesClient client) {
        this.client = client;
    }

    /** Informers on the cluster's nodes, pods and the kinds {@code definitions} name; started by the caller. */
    public ClusterCache cache(Definitions definitions, Consumer<ClusterCache.Change> onChange) {
        return new ClusterCache(client, definitions, onChange);
    }

    /** Writes to the kinds {@code cache} has found served, under their served names. */
    public KubeApplier applier(ClusterCache cache, boolean createNamespaces) {
        return new KubeApplier(client, cache::plural, createNamespaces, FIRST_WRITE_BACKOFF, WRITE_ATTEMPTS);
    }

    /** {@code catalog} with the cluster's Karta objects as they are now laid over it. */
    public Definitions withKartas(Definitions catalog) {
        return Kartas.overlay(catalog, client);
    }

    /**
     * Follows the cluster's Karta objects: {@code onChange} gets {@code catalog} with them laid over, after
     * every change. Throws when they cannot be watched.
     */
    public KartaWatch followKartas(Definitions catalog, Consumer<Definitions> onChange) {
        return KartaWatch.start(client, catalog, onChange);
    }
}
