package dev.cartograph.protocol;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an agent says about its cluster: identity, heartbeat, every node, and the placements it has
 * applied. It is written to the cluster topic as the records that changed ({@link ClusterDeltas}) and
 * put together again by readers ({@link ClusterAssembly}). {@code incarnation} is new on every agent
 * start and {@code sequence} rises with every header of that incarnation, so the broker can drop stale
 * summaries. Immutable.
 */
public record ClusterSummary(
        String cluster,
        Map<String, String> labels,
        String agentVersion,
        String incarnation,
        long sequence,
        Instant heartbeat,
        List<NodeState> nodes,
        List<PlacementReport> placements) {

    public ClusterSummary {
        Objects.requireNonNull(cluster, "cluster");
        labels = Map.copyOf(labels);
        Objects.requireNonNull(agentVersion, "agentVersion");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(heartbeat, "heartbeat");
        nodes = List.copyOf(nodes);
        placements = List.copyOf(placements);
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence cannot be negative");
        }
    }

    /** The capacity part, as placement and fleet snapshots use it; {@code ready} is the broker's judgement. */
    public ClusterState state(boolean ready) {
        return new ClusterState(cluster, labels, ready, nodes);
    }
}
