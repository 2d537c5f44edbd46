package dev.cartograph.protocol;

import dev.cartograph.protocol.ClusterRecord.Gone;
import dev.cartograph.protocol.ClusterRecord.Header;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Kind;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Placed;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One cluster's {@link ClusterSummary}, put together from its cluster topic's records read in order (one
 * partition): node and placement records are held as they come; each {@link Header} completes a summary of
 * everything held, with the names of the nodes that changed since the previous one. A header with a new
 * {@link Stamp} (the agent restarted, or re-sent everything after losing records) drops what was not written
 * again under that stamp — nodes deleted while the agent was away — and says every node may have changed.
 * The records must already be this cluster's (the reader checks the topic). Holds at most
 * {@value #MAX_NODES} nodes and as many placements. Not thread-safe: one reader.
 */
public final class ClusterAssembly {
    /** The most nodes (and, apart, placements) one cluster may report. */
    public static final int MAX_NODES = 100_000;

    private record Held<T>(T value, Stamp stamp) {}

    /** What one record did. */
    public sealed interface Step {
        /** Held until the next header. */
        record Held() implements Step {}

        /**
         * A header completed {@code summary}; {@code changedNodes} names the nodes added, changed or removed
         * since the previous summary, empty when any may have (the first summary, a new stamp).
         * {@code doubt} says when the header's counts differ from what is held (records lost or refused).
         */
        record Summary(ClusterSummary summary, Optional<Set<String>> changedNodes, Optional<String> doubt)
                implements Step {}

        /** Refused, for {@code reason}; nothing held changed. */
        record Refused(String reason) implements Step {}
    }

    private static final Step HELD = new Step.Held();

    private final String cluster;
    private final NodeParts parts;
    private final TreeMap<String, Held<NodeState>> nodes = new TreeMap<>();
    private final TreeMap<String, Held<PlacementReport>> placements = new TreeMap<>();
    private final Set<String> changed = new HashSet<>();
    private boolean everything = true;
    private Stamp stamp;
    private Stamp lastStamp;

    /** @param parts shared with the reader's other clusters (same thread) */
    public ClusterAssembly(String cluster, NodeParts parts) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.parts = Objects.requireNonNull(parts, "parts");
    }

    public Step apply(ClusterRecord r) {
        if (r instanceof Header h) {
            return header(h);
        } else if (r instanceof Node n) {
            return node(n);
        } else if (r instanceof Placed p) {
            return placed(p);
        }
        unreadable(((Gone) r).key());
        return HELD;
    }

    /**
     * The record under {@code key} could not be read: what was held for it is dropped (it is no longer
     * known), so a node whose record is refused stops counting rather than keep a stale state.
     */
    public void unreadable(Key key) {
        if (key.kind() == Kind.NODE) {
            if (nodes.remove(key.name()) != null) {
                changed.add(key.name());
            }
        } else if (key.kind() == Kind.PLACEMENT) {
            placements.remove(key.name());
        }
    }

    /** How many nodes are held (for tests and benchmarks). */
    public int nodes() {
        return nodes.size();
    }

    private Step node(Node r) {
        String name = r.node().name();
        if (nodes.size() >= MAX_NODES && !nodes.containsKey(name)) {
            return new Step.Refused(
                    "cluster " + cluster + " already holds " + MAX_NODES + " nodes, the most one cluster may report");
        }
        NodeState node = parts.share(r.node());
        Held<NodeState> before = nodes.put(name, new Held<>(node, stamp(r.stamp())));
        if (before == null || !before.value().equals(node)) {
            changed.add(name);
        }
        return HELD;
    }

    private Step placed(Placed r) {
        String id = r.placement().placementId();
        if (placements.size() >= MAX_NODES && !placements.containsKey(id)) {
            return new Step.Refused("cluster " + cluster + " already holds " + MAX_NODES
                    + " placements, the most one cluster may report");
        }
        placements.put(id, new Held<>(r.placement(), stamp(r.stamp())));
        return HELD;
    }

    /** One instance per stamp, so held records share it. */
    private Stamp stamp(Stamp s) {
        if (!s.equals(lastStamp)) {
            lastStamp = s;
        }
        return lastStamp;
    }

    private Step header(Header h) {
        if (!h.stamp().equals(stamp)) {
            stamp = stamp(h.stamp());
            nodes.values().removeIf(held -> !held.stamp().equals(stamp));
            placements.values().removeIf(held -> !held.stamp().equals(stamp));
            everything = true;
        }
        ClusterSummary s = new ClusterSummary(
                cluster,
                h.labels(),
                h.agentVersion(),
                h.stamp().incarnation(),
                h.sequence(),
                h.heartbeat(),
                nodes.values().stream().map(Held::value).toList(),
                placements.values().stream().map(Held::value).toList());
        Optional<Set<String>> changedNodes = everything ? Optional.empty() : Optional.of(Set.copyOf(changed));
        changed.clear();
        everything = false;
        Optional<String> doubt = h.nodes() == nodes.size() && h.placements() == placements.size()
                ? Optional.empty()
                : Optional.of("cluster " + cluster + " says it has " + h.nodes() + " nodes and " + h.placements()
                        + " placements; " + nodes.size() + " and " + placements.size()
                        + " were read (records lost or refused)");
        return new Step.Summary(s, changedNodes, doubt);
    }
}
