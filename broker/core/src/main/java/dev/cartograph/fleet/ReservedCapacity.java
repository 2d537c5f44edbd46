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
 * everything reserved in it, whichever nodes the member chose. Pure and thread-safe.
 */
final class ReservedCapacity {
    private ReservedCapacity() {
    }

    /** The nodes with each reservation's demand added to their allocation. */
    static List<NodeState> apply(List<NodeState> nodes, Map<String, ResourceList> reservedPerNode) {
        if (reservedPerNode.isEmpty()) {
            return nodes;
        }
        Map<String, NodeState> byName = new HashMap<>();
        Map<String, ResourceList> allocated = new HashMap<>();
        for (NodeState n : nodes) {
            byName.put(n.name(), n);
            allocated.put(n.name(), n.allocated());
        }
        record Displaced(String product, ResourceList amount) {
        }
        List<Displaced> displaced = new ArrayList<>();
        for (Map.Entry<String, ResourceList> e : new TreeMap<>(reservedPerNode).entrySet()) {
            NodeState n = byName.get(e.getKey());
            if (n != null && e.getValue().fitsIn(n.allocatable().minus(allocated.get(n.name())))) {
                allocated.merge(n.name(), e.getValue(), ResourceList::plus);
            } else {
                displaced.add(new Displaced(n == null ? "" : n.gpuProduct(), e.getValue()));
            }
        }
        displaced.sort(Comparator.comparingLong((Displaced d) -> -d.amount().gpus()));
        for (Displaced d : displaced) {
            List<NodeState> candidates = nodes.stream().filter(n -> n.ready() && n.schedulable()
                    && (d.product().isEmpty() || d.product().equals(n.gpuProduct()))).toList();
            NodeState tightest = null;
            for (NodeState n : candidates) {
                ResourceList room = n.allocatable().minus(allocated.get(n.name()));
                if (d.amount().fitsIn(room) && (tightest == null
                        || room.gpus() < tightest.allocatable().minus(allocated.get(tightest.name())).gpus())) {
                    tightest = n;
                }
            }
            if (tightest != null) {
                allocated.merge(tightest.name(), d.amount(), ResourceList::plus);
            } else {
                takeGpus(d.amount().gpus(), candidates, allocated);
            }
        }
        List<NodeState> out = new ArrayList<>(nodes.size());
        for (NodeState n : nodes) {
            ResourceList a = allocated.get(n.name());
            out.add(a.equals(n.allocated()) ? n : new NodeState(n.name(), n.labels(), n.taints(), n.ready(), n.schedulable(),
                    n.allocatable(), a));
        }
        return out;
    }

    /** No node fits the displaced demand whole: its GPUs come off the freest nodes (the cluster is as full as it is). */
    private static void takeGpus(long gpus, List<NodeState> candidates, Map<String, ResourceList> allocated) {
        long left = gpus;
        List<NodeState> freest = candidates.stream().sorted(Comparator.comparingLong(
                (NodeState n) -> -(n.allocatable().gpus() - allocated.get(n.name()).gpus())).thenComparing(NodeState::name)).toList();
        for (NodeState n : freest) {
            if (left <= 0) {
                return;
            }
            long free = n.allocatable().gpus() - allocated.get(n.name()).gpus();
            long take = Math.min(Math.max(0, free), left);
            if (take > 0) {
                allocated.merge(n.name(), new ResourceList(Map.of(ResourceList.GPU, BigDecimal.valueOf(take))), ResourceList::plus);
                left -= take;
            }
        }
    }
}
