package dev.cartograph.placement;

import java.util.Map;
import java.util.Objects;

/**
 * One cluster as a placement decision sees it: name, labels (for cluster selectors), readiness, and
 * its indexed free capacity. The capacity is the fleet's own index, read on the writer's thread.
 */
public record PlanningCluster(String name, Map<String, String> labels, boolean ready, ClusterCapacity capacity) {
    public PlanningCluster {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        Objects.requireNonNull(capacity, "capacity");
    }
}
