package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An immutable view of the fleet at one moment: the newest summary of every cluster and every
 * open reservation. Readers share it without locks; the one writer ({@link Fleet}) publishes a new
 * snapshot after each change.
 */
public record FleetSnapshot(
        Map<String, ClusterSummary> clusters,
        Map<String, Reservation> reservations,
        Map<String, Instant> received,
        Map<String, Map<String, Integer>> nodeIndex) {
    public static final FleetSnapshot EMPTY = new FleetSnapshot(Map.of(), Map.of(), Map.of(), Map.of());

    /**
     * @param received  when each cluster's newest summary was received, by the reader's clock
     * @param nodeIndex per cluster, each node's position in its summary by name (the maps inside are
     *                  shared, never changed once published)
     */
    public FleetSnapshot {
        clusters = Map.copyOf(clusters);
        reservations = Map.copyOf(reservations);
        received = Map.copyOf(received);
        nodeIndex = Map.copyOf(nodeIndex);
    }

    /** A cluster is ready while its newest summary was received less than {@code timeout} ago (by the reader's clock). */
    public boolean ready(String cluster, Instant now, Duration timeout) {
        Instant at = received.get(cluster);
        return at != null
                && clusters.containsKey(cluster)
                && Duration.between(at, now).compareTo(timeout) <= 0;
    }

    /**
     * What placement sees: every cluster, its readiness, each node's allocation plus what is reserved
     * on it — or, where the member filled a reserved node with other pods, reserved on another node
     * of the cluster ({@link ReservedCapacity}).
     */
    public List<ClusterState> forPlanning(Instant now, Duration heartbeatTimeout) {
        Map<String, Map<String, ResourceList>> reservedByCluster = new java.util.HashMap<>();
        for (Reservation r : reservations.values()) {
            Map<String, ResourceList> nodes =
                    reservedByCluster.computeIfAbsent(r.cluster(), k -> new java.util.HashMap<>());
            r.perNode().forEach((node, amount) -> nodes.merge(node, amount, ResourceList::plus));
        }
        List<ClusterState> out = new ArrayList<>();
        for (ClusterSummary s : clusters.values()) {
            Map<String, ResourceList> reserved = reservedByCluster.getOrDefault(s.cluster(), Map.of());
            Map<String, Integer> index = nodeIndex.get(s.cluster());
            List<NodeState> nodes = index == null
                    ? ReservedCapacity.apply(s.nodes(), reserved)
                    : ReservedCapacity.apply(s.nodes(), index, reserved);
            out.add(new ClusterState(s.cluster(), s.labels(), ready(s.cluster(), now, heartbeatTimeout), nodes));
        }
        return out;
    }
}
