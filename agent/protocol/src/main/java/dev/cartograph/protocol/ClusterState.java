package dev.cartograph.protocol;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A member cluster's capacity as one list of nodes: the expanded form of a {@link ClusterSummary},
 * and the shape of one entry of a fleet snapshot file. Immutable.
 */
public record ClusterState(String name, Map<String, String> labels, boolean ready, List<NodeState> nodes) {
    public ClusterState {
        Objects.requireNonNull(name, "cluster name");
        labels = Map.copyOf(labels);
        nodes = List.copyOf(nodes);
    }
}
