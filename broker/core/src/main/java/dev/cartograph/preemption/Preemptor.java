package dev.cartograph.preemption;

import dev.cartograph.placement.PodDemand;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A waiting gang that looks for victims: its name ({@code namespace/name}, for reasons), queue, priority, pods and
 * cluster selector. Immutable.
 */
public record Preemptor(
        String name, String queue, int priority, List<PodDemand> pods, Map<String, String> clusterSelector) {
    public Preemptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queue, "queue");
        pods = List.copyOf(pods);
        clusterSelector = Map.copyOf(clusterSelector);
    }
}
