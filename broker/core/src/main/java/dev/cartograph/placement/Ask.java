package dev.cartograph.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.NavigableMap;
import java.util.TreeSet;

/**
 * One {@link Need} against one cluster's {@link ClusterCapacity}: the node groups its pods may use —
 * whole groups, or node by node when its constraints name nodes — and the search for the node the
 * policy prefers for its next pod. Lives for one attempt; reads the capacity it was made for.
 */
final class Ask {
    final Need need;
    final PodDemand demand;
    private final ClusterCapacity capacity;
    private final List<NodeGroup> groups = new ArrayList<>();
    /** Per index bucket, the last node a bin-packing scan for this demand passed over. */
    private final Map<TreeSet<Slot>, Slot> resume = new IdentityHashMap<>();
    /** The same for the scan of nodes without GPUs, which a pod without GPUs is offered first. */
    private final Map<TreeSet<Slot>, Slot> resumeOffGpu = new IdentityHashMap<>();

    private final boolean restricted;

    /** @param within the domains this attempt keeps the demand's pods in ({@link Within#ALL}: anywhere) */
    Ask(Need need, ClusterCapacity capacity, Within within) {
        this.need = need;
        this.demand = need.demand();
        this.capacity = capacity;
        this.restricted = within.restricts(need);
        for (NodeGroup g : within.groups(need, capacity)) {
            if (need.namesNodes() || need.admits(g.kind())) {
                groups.add(g);
            }
        }
    }

    /** Whether a pod of this demand may run on the node at all. */
    boolean admits(Slot s) {
        return s.group() != null
                && (need.namesNodes()
                        ? NodeFilter.eligible(demand, s.node()) && (!restricted || groups.contains(s.group()))
                        : groups.contains(s.group()));
    }

    /** The nodes a pod may run on, as indexed. */
    List<Slot> eligible() {
        List<Slot> out = new ArrayList<>();
        for (NodeGroup g : groups) {
            for (Slot s : g.slots()) {
                if (!need.namesNodes() || admits(s)) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    boolean noNode() {
        return need.namesNodes() ? eligible().isEmpty() : groups.stream().allMatch(g -> g.size() == 0);
    }

    /** Over the nodes a pod may use: how many, the most GPUs free on one, GPUs free in all, and pods that fit by GPUs. */
    record GpuFigures(long nodes, long largest, long free, long room) {}

    GpuFigures gpuFigures() {
        long gpus = need.gpus();
        long nodes = 0;
        long largest = 0;
        long free = 0;
        long room = 0;
        if (need.namesNodes()) {
            for (Slot s : eligible()) {
                nodes++;
                largest = Math.max(largest, s.freeGpus());
                free += s.freeGpus();
                room += gpus > 0 ? s.freeGpus() / gpus : 0;
            }
            return new GpuFigures(nodes, largest, free, room);
        }
        for (NodeGroup g : groups) {
            nodes += g.size();
            if (!g.byGpus().isEmpty()) {
                largest = Math.max(largest, g.byGpus().lastKey());
            }
            for (Entry<Long, TreeSet<Slot>> e : g.byGpus().entrySet()) {
                free += e.getKey() * e.getValue().size();
                room += gpus > 0 ? e.getKey() / gpus * e.getValue().size() : 0;
            }
        }
        return new GpuFigures(nodes, largest, free, room);
    }

    /**
     * For a demand of more pods than there are nodes it may use (a huge gang or Deployment, which the
     * node-by-node search would take long to refuse): the first of CPU, memory and pod slots of which
     * those nodes have less free in all than {@code count} pods ask (a necessary condition), with how
     * much that is. Empty otherwise, or when amounts are not all in {@link Units}.
     */
    java.util.Optional<String> shortInAll(long count) {
        long[] asked = need.exact();
        long nodes = groups.stream().mapToLong(NodeGroup::size).sum();
        if (asked == null || need.namesNodes() || count <= nodes) {
            return java.util.Optional.empty();
        }
        long[] all = new long[4];
        for (NodeGroup g : groups) {
            long[] f = g.free();
            if (f == null) {
                return java.util.Optional.empty();
            }
            for (int i = 0; i < all.length; i++) {
                all[i] += f[i];
            }
        }
        String[] names = {"", "cpu", "memory", "pods"};
        for (int i = 1; i < all.length; i++) {
            long want;
            try {
                want = Math.multiplyExact(asked[i], count);
            } catch (ArithmeticException tooMuch) {
                want = Long.MAX_VALUE;
            }
            if (want > all[i]) {
                return java.util.Optional.of(
                        "needs " + count + " pods (" + need.what() + ") each with " + names[i] + " "
                                + Units.format(i, asked[i]) + ": " + Units.format(i, all[i]) + " free in all on the "
                                + nodes + " ready nodes it may use");
            }
        }
        return java.util.Optional.empty();
    }

    /** Whether at least {@code count} pods fit by GPUs alone, each on one node (a necessary condition). */
    boolean roomForByGpus(long count) {
        long gpus = need.gpus();
        if (need.namesNodes()) {
            return gpuFigures().room() >= count;
        }
        long room = 0;
        for (NodeGroup g : groups) {
            for (Entry<Long, TreeSet<Slot>> e = g.byGpus().lastEntry();
                    e != null && e.getKey() >= gpus;
                    e = g.byGpus().lowerEntry(e.getKey())) {
                room += e.getKey() / gpus * e.getValue().size();
                if (room >= count) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The node the next pod goes to: among nodes where it fits, the fewest GPUs left (GPU pods) or
     * the least CPU left (others) under bin packing, the most under spread; ties by node name. Null
     * when it fits nowhere. A pod without GPUs goes to a node with GPUs only when no node without them
     * has room (CPU-only pods would strand GPUs, and split GPU domains). Untouched nodes are found in the
     * index; nodes this attempt took on are looked at as they now stand, those in {@code others} only:
     * under bin packing a node this demand took on has no room left for it (it was given all it could
     * take), so {@code others} are the nodes earlier demands took on; under spread, all touched nodes.
     */
    String best(Planner.Policy policy, Tentative t, Collection<String> others) {
        if (need.gpus() > 0) {
            return best(policy, t, others, Nodes.ANY);
        }
        String offGpu = best(policy, t, others, Nodes.WITHOUT_GPUS);
        return offGpu != null ? offGpu : best(policy, t, others, Nodes.WITH_GPUS);
    }

    /** Which nodes one search looks at. */
    private enum Nodes {
        ANY,
        WITHOUT_GPUS,
        WITH_GPUS;

        boolean has(Slot s) {
            return this == ANY || (s.allGpus() > 0) == (this == WITH_GPUS);
        }

        /** Whether some node of the group may be one this search looks at. */
        boolean mayHave(NodeGroup g) {
            return this == ANY || (this == WITH_GPUS ? g.withGpus() > 0 : g.withGpus() < g.size());
        }
    }

    private String best(Planner.Policy policy, Tentative t, Collection<String> others, Nodes nodes) {
        String best = null;
        long bestKey = 0;
        boolean pack = policy == Planner.Policy.BIN_PACK;
        long gpus = need.gpus();
        long wanted = gpus > 0 ? gpus : need.cpu();
        for (NodeGroup g : groups) {
            if (!nodes.mayHave(g)) {
                continue;
            }
            NavigableMap<Long, TreeSet<Slot>> index = gpus > 0 ? g.byGpus() : g.byCpu();
            // buckets from the best key on, walked without views (this is the planner's innermost loop)
            for (Entry<Long, TreeSet<Slot>> e = pack ? index.ceilingEntry(wanted) : index.lastEntry();
                    e != null && e.getKey() >= wanted;
                    e = pack ? index.higherEntry(e.getKey()) : index.lowerEntry(e.getKey())) {
                long key = pack ? e.getKey() - wanted : wanted - e.getKey();
                if (best != null && key > bestKey) {
                    break;
                }
                String found = scan(e.getValue(), pack, t, best != null && key == bestKey ? best : null, nodes);
                if (found != null) {
                    best = found;
                    bestKey = key;
                    break;
                }
            }
        }
        for (String name : others) {
            Touched n = t.touched(name);
            if (!nodes.has(n.base) || !admits(n.base) || n.freeGpus() < gpus || !n.fits(need)) {
                continue;
            }
            long left = gpus > 0 ? n.freeGpus() - gpus : n.freeCpu() - need.cpu();
            long key = pack ? left : -left;
            if (best == null || key < bestKey || key == bestKey && name.compareTo(best) < 0) {
                best = name;
                bestKey = key;
            }
        }
        return best;
    }

    /**
     * The first node of one index bucket, in name order (before {@code before} when given), that is
     * untouched and fits. Under bin packing the scan resumes where the last one for this demand stopped:
     * the nodes passed were touched or do not fit, and untouched nodes do not change during an attempt.
     */
    private String scan(TreeSet<Slot> slots, boolean pack, Tentative t, String before, Nodes nodes) {
        Map<TreeSet<Slot>, Slot> resume = nodes == Nodes.WITHOUT_GPUS ? resumeOffGpu : this.resume;
        Slot from = pack ? resume.get(slots) : null;
        for (Slot s = from == null ? slots.first() : slots.higher(from); s != null; s = slots.higher(s)) {
            if (before != null && s.name().compareTo(before) > 0) {
                return null;
            }
            if (nodes.has(s) && t.touched(s.name()) == null && (!need.namesNodes() || admits(s)) && s.fits(need)) {
                return s.name();
            }
            if (pack) {
                resume.put(slots, s);
            }
        }
        return null;
    }
}
