package dev.cartograph.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One domain of a topology level in one cluster, as a gang's pods may use it: the ready, schedulable nodes that
 * carry the level's label with this value and that some of the gang's bound pods may run on, with their free GPUs.
 * Immutable.
 */
record Domain(String value, long nodes, long freeGpus, long largest, List<NodeGroup> groups) {
    Domain {
        groups = List.copyOf(groups);
    }

    /** Fullest first (fewest GPUs free), then by value: packing into the fullest domain that fits keeps large ones whole. */
    static final Comparator<Domain> FULLEST_FIRST =
            Comparator.comparingLong(Domain::freeGpus).thenComparing(Domain::value);

    /** Most GPUs free first, then by value. */
    static final Comparator<Domain> LARGEST_FIRST =
            Comparator.comparingLong((Domain d) -> -d.freeGpus).thenComparing(Domain::value);

    /** The cluster's domains of the request's level, fullest first. */
    static List<Domain> of(ClusterCapacity capacity, GangTopology topology, List<Need> needs) {
        List<Need> bound =
                needs.stream().filter(n -> topology.binds(n.demand())).toList();
        Map<String, long[]> sums = new TreeMap<>();
        Map<String, List<NodeGroup>> groups = new TreeMap<>();
        for (NodeGroup g : capacity.groups()) {
            String value = g.kind().labels().get(topology.level());
            if (value == null || g.size() == 0 || !admitsAny(bound, g)) {
                continue;
            }
            long[] s = sums.computeIfAbsent(value, k -> new long[3]);
            groups.computeIfAbsent(value, k -> new ArrayList<>()).add(g);
            s[0] += g.size();
            for (var e : g.byGpus().entrySet()) {
                s[1] += e.getKey() * e.getValue().size();
                s[2] = Math.max(s[2], e.getKey());
            }
        }
        List<Domain> out = new ArrayList<>();
        sums.forEach((value, s) -> out.add(new Domain(value, s[0], s[1], s[2], groups.get(value))));
        out.sort(FULLEST_FIRST);
        return out;
    }

    private static boolean admitsAny(List<Need> needs, NodeGroup g) {
        for (Need n : needs) {
            if (n.namesNodes() || n.admits(g.kind())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the domain may hold the bound pods at all: enough GPUs free in all, and a node with as many free as the
     * largest pod asks (a necessary condition, checked before planning the gang in it).
     */
    boolean mayHold(long gpus, long largestPod) {
        return freeGpus >= gpus && largest >= largestPod;
    }

    /**
     * Why no single domain takes the gang, with the numbers to act on: what its bound pods need, and the largest
     * domains' free GPUs and nodes.
     */
    static String noneHolds(GangTopology topology, List<Need> needs, List<Domain> domains) {
        long pods = 0;
        long gpus = 0;
        for (Need n : needs) {
            if (topology.binds(n.demand())) {
                pods += n.demand().count();
                gpus += n.gpus() * n.demand().count();
            }
        }
        String asked = "needs " + pods + " pods" + (gpus > 0 ? " with " + gpus + " GPUs" : "") + " in one "
                + topology.level() + " domain";
        if (domains.isEmpty()) {
            return asked + ": no ready node its pods may use has the label " + topology.level();
        }
        List<Domain> largest = domains.stream().sorted(LARGEST_FIRST).toList();
        Domain top = largest.get(0);
        return asked + ": the largest free is " + topology.level() + "=" + top.value() + " with " + top.freeGpus()
                + " GPUs free on " + top.nodes() + " nodes (largest block " + top.largest() + "); " + domains.size()
                + (domains.size() == 1 ? " domain" : " domains") + ": "
                + largest.stream()
                        .limit(4)
                        .map(d -> d.value() + " " + d.freeGpus() + " GPUs free on " + d.nodes() + " nodes")
                        .collect(Collectors.joining(", "))
                + (domains.size() > 4 ? ", …" : "");
    }
}
