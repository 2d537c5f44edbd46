package dev.cartograph.cli.kube;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * One command's connection to a cluster: its reader and its served kinds, over one fabric8 client
 * that {@link #close()} releases. Callers see no fabric8 type. Not thread-safe.
 */
public final class ClusterSession implements AutoCloseable {
    private static final int PAGE_SIZE = 500;

    private final KubernetesClient client;
    private final ClusterReader reader;
    private final ApiTypes types;

    private ClusterSession(KubernetesClient client) {
        this.client = client;
        this.reader = new ClusterReader(client, PAGE_SIZE);
        this.types = new ApiTypes(client);
    }

    /** Connects as kubectl would with these options; a cluster that cannot be reached is a {@link Kube.ClusterError}. */
    public static ClusterSession open(ClusterOptions options) {
        return new ClusterSession(Kube.connect(options));
    }

    public ClusterReader reader() {
        return reader;
    }

    public ApiTypes types() {
        return types;
    }

    @Override
    public void close() {
        client.close();
    }
}
