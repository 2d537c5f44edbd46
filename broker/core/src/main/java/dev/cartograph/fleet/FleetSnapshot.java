package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.ClusterSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An immutable view of the fleet at one moment: the newest summary of every cluster and every
 * open reservation, for readers on other threads (REST, views). The one writer ({@link Fleet})
 * makes a new one when asked after a change.
 *
 * @param received when each cluster's newest summary was received, by the reader's clock
 * @param placed   per cluster, where its reservations count per node (after any displacement, see
 *                 {@link ReservedCapacity})
 */
public record FleetSnapshot(
        Map<String, ClusterSummary> clusters,
        Map<String, Reservation> reservations,
        Map<String, Instant> received,
        Map<String, Map<String, ResourceList>> placed) {
    public static final FleetSnapshot EMPTY = new FleetSnapshot(Map.of(), Map.of(), Map.of(), Map.of());

    public FleetSnapshot {
        clusters = Map.copyOf(clusters);
        reservations = Map.copyOf(reservations);
        received = Map.copyOf(received);
        placed = Map.copyOf(placed);
    }

    /** A cluster is ready while its newest summary was received less than {@code timeout} ago (by the reader's clock). */
    public boolean ready(String cluster, Instant now, Duration timeout) {
        Instant at = received.get(cluster);
        return at != null
                && clusters.containsKey(cluster)
                && Duration.between(at, now).compareTo(timeout) <= 0;
    }

    /**
     * Every cluster as plain node lists, each node's allocation plus what is reserved on it — or,
     * where the member filled a reserved node with other pods, reserved on another node of the
     * cluster ({@link ReservedCapacity}). One pass over every node: for views and previews; the
     * broker's own decisions use {@link Fleet#planning}.
     */
    public List<ClusterState> forPlanning(Instant now, Duration heartbeatTimeout) {
        List<ClusterState> out = new ArrayList<>();
        for (ClusterSummary s : clusters.values()) {
            out.add(new ClusterState(
                    s.cluster(),
                    s.labels(),
                    ready(s.cluster(), now, heartbeatTimeout),
                    ReservedCapacity.withExtras(s.nodes(), placed.getOrDefault(s.cluster(), Map.of()))));
        }
        return out;
    }
}
