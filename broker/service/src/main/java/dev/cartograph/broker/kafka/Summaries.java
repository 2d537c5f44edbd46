package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.ClusterAssembly;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per cluster, its summary put together from its cluster topic's records ({@link ClusterAssembly}), handed to
 * the coordinator as {@link Input.Cluster} with the nodes that changed — at the newest header of each poll, so older headers read in the same poll cost
 * nothing. When a header's counts differ from what was read, that is logged (again only when it changes). Not
 * thread-safe: one decoding thread ({@link Shard}).
 */
final class Summaries {
    private static final Logger LOG = LoggerFactory.getLogger(Summaries.class);

    private final Consumer<Input> coordinator;
    private final Consumer<String> heardOf;
    private final Set<String> known = new HashSet<>();
    private final Map<String, ClusterAssembly> assemblies = new HashMap<>();
    private final Map<String, String> doubts = new HashMap<>();

    /**
     * @param coordinator where summaries go (the coordinator's inbox)
     * @param heardOf told once of each cluster whose summary is handed on (its command topic is made then, off this
     *                thread: one Kafka round trip per cluster would otherwise hold up catching up on every cluster)
     */
    Summaries(Consumer<Input> coordinator, Consumer<String> heardOf) {
        this.coordinator = coordinator;
        this.heardOf = heardOf;
    }

    /**
     * Takes one record of a cluster topic; at {@code lastHeader} (the poll's last header of that topic) hands on
     * the summary completed. The reason it was refused, if it was.
     */
    Optional<String> part(Records.Read.Part p, boolean lastHeader) {
        ClusterAssembly assembly = assembly(p.cluster());
        Optional<String> refused = assembly.apply(p.record()) instanceof ClusterAssembly.Step.Refused r
                ? Optional.of(r.reason())
                : Optional.empty();
        if (lastHeader) {
            take(p.cluster());
        }
        return refused;
    }

    /** The cluster's assembly (a new one for a cluster not read yet), to ask what it holds; not to change. */
    ClusterAssembly assembly(String cluster) {
        return assemblies.computeIfAbsent(cluster, ClusterAssembly::new);
    }

    /** A node or placement record could not be read: what was held for it is dropped. */
    void unreadable(Records.Read.Unreadable u) {
        ClusterAssembly assembly = assemblies.get(u.cluster());
        if (assembly != null) {
            assembly.unreadable(u.key());
        }
    }

    /** Hands on {@code cluster}'s completed summary, if one is waiting. */
    void take(String cluster) {
        ClusterAssembly assembly = assemblies.get(cluster);
        if (assembly != null) {
            assembly.take().ifPresent(this::post);
        }
    }

    /** The cluster's topic is gone: if it comes back, it is read from the beginning as a new one. */
    void forget(String cluster) {
        assemblies.remove(cluster);
        doubts.remove(cluster);
        known.remove(cluster);
    }

    private void post(ClusterAssembly.Summary s) {
        String cluster = s.summary().cluster();
        if (known.add(cluster)) {
            heardOf.accept(cluster);
        }
        String doubt = s.doubt().orElse(null);
        if (doubt != null && !doubt.equals(doubts.get(cluster))) {
            LOG.warn("{}", doubt);
        }
        if (doubt == null) {
            doubts.remove(cluster);
        } else {
            doubts.put(cluster, doubt);
        }
        coordinator.accept(new Input.Cluster(s.summary(), s.changedNodes()));
    }
}
