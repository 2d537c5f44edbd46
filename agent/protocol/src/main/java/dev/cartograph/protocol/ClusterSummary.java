package dev.cartograph.protocol;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an agent says about its cluster: identity, heartbeat, every node, the placements it has
 * applied, and the catalog kinds it cannot watch for now. It is written to the cluster topic as the records that
 * changed ({@link ClusterDeltas}) and put together again by readers ({@link ClusterAssembly}). {@code incarnation} is
 * new on every agent start and {@code sequence} rises with every header of that incarnation, so the broker can drop
 * stale summaries. Immutable.
 *
 * @param unwatched the catalog kinds the agent cannot watch for now ({@link UnwatchedKind}): copies of these kinds may
 *                  be missing from {@code placements} without being gone; empty from agents that did not say
 */
public record ClusterSummary(
        String cluster,
        Map<String, String> labels,
        String agentVersion,
        String incarnation,
        long sequence,
        Instant heartbeat,
        List<NodeState> nodes,
        List<PlacementReport> placements,
        List<UnwatchedKind> unwatched) {

    public ClusterSummary {
        Objects.requireNonNull(cluster, "cluster");
        labels = Map.copyOf(labels);
        Objects.requireNonNull(agentVersion, "agentVersion");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(heartbeat, "heartbeat");
        nodes = List.copyOf(nodes);
        placements = List.copyOf(placements);
        unwatched = List.copyOf(unwatched);
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence cannot be negative");
        }
    }

    /** A summary with every catalog kind watched (no {@link #unwatched()}). */
    public ClusterSummary(
            String cluster,
            Map<String, String> labels,
            String agentVersion,
            String incarnation,
            long sequence,
            Instant heartbeat,
            List<NodeState> nodes,
            List<PlacementReport> placements) {
        this(cluster, labels, agentVersion, incarnation, sequence, heartbeat, nodes, placements, List.of());
    }

    /** The capacity part, as placement and fleet snapshots use it; {@code ready} is the broker's judgement. */
    public ClusterState state(boolean ready) {
        return new ClusterState(cluster, labels, ready, nodes);
    }
}
