package dev.cartograph.placement;

import dev.cartograph.protocol.ClusterState;
import java.util.Comparator;
import java.util.List;

/** The clusters a decision may choose from, in name order. Immutable list; the capacities are the fleet's. */
public record PlanningFleet(List<PlanningCluster> clusters) {
    public PlanningFleet {
        clusters = clusters.stream()
                .sorted(Comparator.comparing(PlanningCluster::name))
                .toList();
    }

    /** Indexes clusters given as plain node lists (a fleet snapshot file, a preview): costs one pass over every node. */
    public static PlanningFleet of(List<ClusterState> states) {
        return new PlanningFleet(states.stream()
                .map(s -> new PlanningCluster(s.name(), s.labels(), s.ready(), ClusterCapacity.of(s.nodes())))
                .toList());
    }

    /** The same clusters but one. */
    public PlanningFleet without(String cluster) {
        return new PlanningFleet(
                clusters.stream().filter(c -> !c.name().equals(cluster)).toList());
    }

    /** The same clusters but these (itself when there are none to leave out). */
    public PlanningFleet without(java.util.Set<String> excluded) {
        return excluded.isEmpty()
                ? this
                : new PlanningFleet(clusters.stream()
                        .filter(c -> !excluded.contains(c.name()))
                        .toList());
    }

    /** Only the named cluster (none if it is not here). */
    public PlanningFleet only(String cluster) {
        return new PlanningFleet(
                clusters.stream().filter(c -> c.name().equals(cluster)).toList());
    }
}
