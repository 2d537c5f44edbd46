package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Where what placements have reserved in one cluster counts, for planning. A reservation names the
 * nodes the broker chose, but the member's own scheduler binds pods wherever it likes: another gang's
 * pods may already fill a node reserved for a gang whose pods do not exist yet. Such a reservation is
 * not dropped (its pods still need room in this cluster): it is <em>displaced</em> onto the node of
 * the same GPU model that fits it most tightly (ties by name), or, if none fits it whole, its GPUs are
 * taken from the freest such nodes. So a cluster's free GPUs for planning never exceed its free GPUs
 * minus everything reserved in it, whichever nodes the member chose. Looks only at the reserved nodes
 * unless something is displaced. Pure and thread-safe.
 */
final class ReservedCapacity {
    private ReservedCapacity() {}

    /** The nodes with each reservation's demand added to their allocation (in the same order). */
    static List<NodeState> apply(List<NodeState> nodes, Map<String, ResourceList> reservedPerNode) {
        Map<String, NodeState> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        return withExtras(nodes, extras(byName::get, nodes, reservedPerNode));
    }

    /** The nodes with {@code extras} (by node name) added to their allocation. */
    static List<NodeState> withExtras(List<NodeState> nodes, Map<String, ResourceList> extras) {
        if (extras.isEmpty()) {
            return nodes;
        }
        List<NodeState> out = new ArrayList<>(nodes.size());
        for (NodeState n : nodes) {
            ResourceList extra = extras.get(n.name());
            out.add(
                    extra == null
                            ? n
                            : new NodeState(
                                    n.name(),
                                    n.labels(),
                                    n.taints(),
                                    n.ready(),
                                    n.schedulable(),
                                    n.allocatable(),
                                    n.allocated().plus(extra)));
        }
        return out;
    }

    /**
     * Per node name, what reservations add to its allocation once displaced ones are moved.
     *
     * @param node the cluster's node of a name, or null
     * @param all  every node of the cluster (looked at only when a reservation is displaced)
     */
    static Map<String, ResourceList> extras(
            Function<String, NodeState> node, Iterable<NodeState> all, Map<String, ResourceList> reservedPerNode) {
        Map<String, ResourceList> extra = new HashMap<>();
        if (reservedPerNode.isEmpty()) {
            return extra;
        }
        record Displaced(String product, ResourceList amount) {}
        List<Displaced> displaced = new ArrayList<>();
        for (Map.Entry<String, ResourceList> e : new TreeMap<>(reservedPerNode).entrySet()) {
            NodeState n = node.apply(e.getKey());
            if (n != null && e.getValue().fitsIn(room(n, extra))) {
                extra.merge(n.name(), e.getValue(), ResourceList::plus);
            } else {
                displaced.add(new Displaced(n == null ? "" : n.gpuProduct(), e.getValue()));
            }
        }
        if (!displaced.isEmpty()) {
            displaced.sort(Comparator.comparingLong((Displaced d) -> -d.amount().gpus()));
            for (Displaced d : displaced) {
                place(all, extra, d.product(), d.amount());
            }
        }
        return extra;
    }

    private static ResourceList room(NodeState n, Map<String, ResourceList> extra) {
        ResourceList more = extra.get(n.name());
        return n.allocatable()
                .minus(more == null ? n.allocated() : n.allocated().plus(more));
    }

    private static long freeGpus(NodeState n, Map<String, ResourceList> extra) {
        return room(n, extra).gpus();
    }

    /** A displaced reservation: on the usable node of its GPU model it fits most tightly, else its GPUs off the freest ones. */
    private static void place(
            Iterable<NodeState> all, Map<String, ResourceList> extra, String product, ResourceList amount) {
        List<NodeState> candidates = new ArrayList<>();
        for (NodeState n : all) {
            if (n.ready() && n.schedulable() && (product.isEmpty() || product.equals(n.gpuProduct()))) {
                candidates.add(n);
            }
        }
        candidates.sort(Comparator.comparing(NodeState::name));
        NodeState tightest = null;
        for (NodeState n : candidates) {
            if (amount.fitsIn(room(n, extra)) && (tightest == null || freeGpus(n, extra) < freeGpus(tightest, extra))) {
                tightest = n;
            }
        }
        if (tightest != null) {
            extra.merge(tightest.name(), amount, ResourceList::plus);
            return;
        }
        long left = amount.gpus();
        candidates.sort(
                Comparator.comparingLong((NodeState n) -> -freeGpus(n, extra)).thenComparing(NodeState::name));
        for (NodeState n : candidates) {
            if (left <= 0) {
                return;
            }
            long take = Math.min(Math.max(0, freeGpus(n, extra)), left);
            if (take > 0) {
                extra.merge(
                        n.name(),
                        new ResourceList(Map.of(ResourceList.GPU, BigDecimal.valueOf(take))),
                        ResourceList::plus);
                left -= take;
            }
        }
    }
}
