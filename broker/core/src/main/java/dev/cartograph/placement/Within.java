package dev.cartograph.placement;

import java.util.Set;

/**
 * Which kinds of node a demand's pods may use in one attempt, beyond what the pods themselves allow: all of them, or
 * only those in some domains of a topology level (nodes lacking the level's label are in none). Immutable.
 */
record Within(GangTopology topology, Set<String> domains) {
    /** No restriction. */
    static final Within ALL = new Within(GangTopology.NONE, Set.of());

    Within {
        domains = Set.copyOf(domains);
    }

    static Within domains(GangTopology topology, Set<String> domains) {
        return new Within(topology, domains);
    }

    /** Whether pods of {@code need} may use nodes of {@code kind} in this attempt. */
    boolean admits(Need need, NodeGroup.Kind kind) {
        if (this == ALL || !topology.binds(need.demand())) {
            return true;
        }
        String value = kind.labels().get(topology.level());
        return value != null && domains.contains(value);
    }
}
