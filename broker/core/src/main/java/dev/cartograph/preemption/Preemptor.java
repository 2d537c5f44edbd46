package dev.cartograph.preemption;

import dev.cartograph.placement.PodDemand;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A waiting gang that looks for victims: its name ({@code namespace/name}, for reasons), queue, priority, pods,
 * cluster selector and topology request (victims are only taken where freeing them lets it fit as it asks).
 * Immutable.
 */
public record Preemptor(
        String name,
        String queue,
        int priority,
        List<PodDemand> pods,
        Map<String, String> clusterSelector,
        dev.cartograph.placement.GangTopology topology) {
    public Preemptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queue, "queue");
        pods = List.copyOf(pods);
        clusterSelector = Map.copyOf(clusterSelector);
        Objects.requireNonNull(topology, "topology");
    }

    /** A gang that asks for no topology. */
    public Preemptor(
            String name, String queue, int priority, List<PodDemand> pods, Map<String, String> clusterSelector) {
        this(name, queue, priority, pods, clusterSelector, dev.cartograph.placement.GangTopology.NONE);
    }
}
