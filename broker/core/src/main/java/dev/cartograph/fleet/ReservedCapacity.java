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

/**
 * Adds what placements have reserved to one cluster's nodes, for planning. A reservation names the
 * nodes the broker chose, but the member's own scheduler binds pods wherever it likes: another gang's
 * pods may already fill a node reserved for a gang whose pods do not exist yet. Such a reservation is
 * not dropped (its pods still need room in this cluster): it is <em>displaced</em> onto the node of
 * the same GPU model that fits it most tightly, or, if none fits it whole, its GPUs are taken from
 * the freest such nodes. So a cluster's free GPUs for planning never exceed its free GPUs minus
 * everything reserved in it, whichever nodes the member chose. Touches only the reserved nodes
 * unless something is displaced. Pure and thread-safe.
 */
final class ReservedCapacity {
    private ReservedCapacity() {}

    /** The nodes with each reservation's demand added to their allocation. */
    static List<NodeState> apply(List<NodeState> nodes, Map<String, ResourceList> reservedPerNode) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).name(), i);
        }
        return apply(nodes, index, reservedPerNode);
    }

    /** As {@link #apply(List, Map)}, with the nodes' positions by name already known. */
    static List<NodeState> apply(
            List<NodeState> nodes, Map<String, Integer> index, Map<String, ResourceList> reservedPerNode) {
        if (reservedPerNode.isEmpty()) {
            return nodes;
        }
        Map<Integer, ResourceList> allocated = new HashMap<>();
        record Displaced(String product, ResourceList amount) {}
        List<Displaced> displaced = new ArrayList<>();
        for (Map.Entry<String, ResourceList> e : new TreeMap<>(reservedPerNode).entrySet()) {
            Integer i = index.get(e.getKey());
            if (i != null && e.getValue().fitsIn(room(nodes, allocated, i))) {
                allocated.merge(i, e.getValue(), ResourceList::plus);
            } else {
                displaced.add(new Displaced(i == null ? "" : nodes.get(i).gpuProduct(), e.getValue()));
            }
        }
        if (!displaced.isEmpty()) {
            displaced.sort(Comparator.comparingLong((Displaced d) -> -d.amount().gpus()));
            for (Displaced d : displaced) {
                place(nodes, allocated, d.product(), d.amount());
            }
        }
        List<NodeState> out = new ArrayList<>(nodes);
        allocated.forEach((i, extra) -> {
            NodeState n = nodes.get(i);
            out.set(
                    i,
                    new NodeState(
                            n.name(),
                            n.labels(),
                            n.taints(),
                            n.ready(),
                            n.schedulable(),
                            n.allocatable(),
                            n.allocated().plus(extra)));
        });
        return out;
    }

    private static ResourceList room(List<NodeState> nodes, Map<Integer, ResourceList> allocated, int i) {
        NodeState n = nodes.get(i);
        ResourceList extra = allocated.get(i);
        return n.allocatable()
                .minus(extra == null ? n.allocated() : n.allocated().plus(extra));
    }

    private static long freeGpus(List<NodeState> nodes, Map<Integer, ResourceList> allocated, int i) {
        return room(nodes, allocated, i).gpus();
    }

    /** A displaced reservation: on the usable node of its GPU model it fits most tightly, else its GPUs off the freest ones. */
    private static void place(
            List<NodeState> nodes, Map<Integer, ResourceList> allocated, String product, ResourceList amount) {
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            NodeState n = nodes.get(i);
            if (n.ready() && n.schedulable() && (product.isEmpty() || product.equals(n.gpuProduct()))) {
                candidates.add(i);
            }
        }
        Integer tightest = null;
        for (int i : candidates) {
            if (amount.fitsIn(room(nodes, allocated, i))
                    && (tightest == null || freeGpus(nodes, allocated, i) < freeGpus(nodes, allocated, tightest))) {
                tightest = i;
            }
        }
        if (tightest != null) {
            allocated.merge(tightest, amount, ResourceList::plus);
            return;
        }
        long left = amount.gpus();
        candidates.sort(Comparator.comparingLong((Integer i) -> -freeGpus(nodes, allocated, i))
                .thenComparing(i -> nodes.get(i).name()));
        for (int i : candidates) {
            if (left <= 0) {
                return;
            }
            long take = Math.min(Math.max(0, freeGpus(nodes, allocated, i)), left);
            if (take > 0) {
                allocated.merge(
                        i, new ResourceList(Map.of(ResourceList.GPU, BigDecimal.valueOf(take))), ResourceList::plus);
                left -= take;
            }
        }
    }
}
