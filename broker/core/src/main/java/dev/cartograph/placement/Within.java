package dev.cartograph.placement;

import java.util.Collection;
import java.util.List;

/**
 * Which node groups a demand's pods may use in one attempt, beyond what the pods themselves allow: all of the
 * cluster's, or — for the pods a topology request binds — only those of some domains ({@link Domain#groups}; nodes
 * lacking the level's label are in none). Immutable.
 */
record Within(GangTopology topology, List<NodeGroup> groups) {
    /** No restriction. */
    static final Within ALL = new Within(GangTopology.NONE, List.of());

    Within {
        groups = List.copyOf(groups);
    }

    /** The bound pods kept to these domains' node groups. */
    static Within domains(GangTopology topology, Collection<Domain> domains) {
        return new Within(
                topology, domains.stream().flatMap(d -> d.groups().stream()).toList());
    }

    /** The node groups {@code need}'s pods may be looked for in, in this attempt. */
    Collection<NodeGroup> groups(Need need, ClusterCapacity capacity) {
        return this == ALL || !topology.binds(need.demand()) ? capacity.groups() : groups;
    }

    /** Whether the demand's pods are kept to some domains in this attempt. */
    boolean restricts(Need need) {
        return this != ALL && topology.binds(need.demand());
    }
}
