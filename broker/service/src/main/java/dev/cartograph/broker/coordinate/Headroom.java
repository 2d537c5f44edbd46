package dev.cartograph.broker.coordinate;

import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.NodeState;
import java.util.HashMap;
import java.util.Map;

/**
 * What one cluster could still take, GPU-wise, as a cheap necessary condition before planning: per
 * GPU model (and for any model), the free GPUs on its ready, schedulable nodes in all and the largest
 * free block on one node. A gang whose pods need more than that cannot fit, whatever the planner
 * would choose; one that passes may still not fit (taints, affinity, CPU, memory, how blocks combine),
 * which only the planner says. Immutable.
 */
final class Headroom {
    private static final String ANY = "";

    private record Free(long total, long largest) {
        Free add(long gpus) {
            return new Free(total + gpus, Math.max(largest, gpus));
        }
    }

    private final Map<String, Free> free;

    private Headroom(Map<String, Free> free) {
        this.free = free;
    }

    /** The cluster's headroom as placement sees it (reservations counted); none at all while it is not ready. */
    static Headroom of(ClusterState cluster) {
        Map<String, Free> free = new HashMap<>();
        if (cluster.ready()) {
            for (NodeState n : cluster.nodes()) {
                if (n.ready() && n.schedulable()) {
                    long gpus =
                            Math.max(0, n.allocatable().gpus() - n.allocated().gpus());
                    free.merge(n.gpuProduct(), new Free(gpus, gpus), (a, b) -> a.add(gpus));
                    if (!n.gpuProduct().isEmpty()) {
                        free.merge(ANY, new Free(gpus, gpus), (a, b) -> a.add(gpus));
                    }
                }
            }
        }
        return new Headroom(free);
    }

    /** False when the gang's GPUs cannot fit here: a pod larger than every free block, or more GPUs than are free. */
    boolean mayFit(DemandCache.Asked.Gang gang) {
        Map<String, Long> need = new HashMap<>();
        for (PodDemand d : gang.pods()) {
            long gpus = d.perPod().gpus();
            if (gpus <= 0 || d.count() == 0) {
                continue;
            }
            Free here = free.get(d.gpuProduct());
            if (here == null || gpus > here.largest()) {
                return false;
            }
            need.merge(d.gpuProduct(), gpus * d.count(), Long::sum);
            if (!d.gpuProduct().isEmpty()) {
                need.merge(ANY, gpus * d.count(), Long::sum);
            }
        }
        return need.entrySet().stream()
                .allMatch(e -> e.getValue() <= free.get(e.getKey()).total());
    }
}
