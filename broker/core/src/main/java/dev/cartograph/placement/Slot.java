package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node as the planner indexes it: the node as its agent reported it, what is free on it for
 * placement (allocatable minus the agent's allocation minus what the broker reserved there, never
 * below zero), its free GPUs and CPU as whole numbers for the index, and its {@link NodeGroup} (none
 * when the node is not ready or cordoned: nothing may be placed there). GPUs are whole devices, as
 * Kubernetes requires of extended resources. {@code exact} is {@code free} in {@link Units} (null when
 * it has no such form). Immutable (the array is never changed).
 */
record Slot(NodeState node, ResourceList free, long[] exact, long freeGpus, long freeCpu, NodeGroup group) {
    static Slot of(NodeState node, ResourceList reserved, NodeGroup group) {
        ResourceList allocated =
                reserved.isEmpty() ? node.allocated() : node.allocated().plus(reserved);
        ResourceList free = positive(node.allocatable().minus(allocated));
        long freeGpus = Math.max(0, node.allocatable().gpus() - allocated.gpus());
        return new Slot(node, free, Units.of(free, false), freeGpus, free.cpuMillis(), group);
    }

    String name() {
        return node.name();
    }

    long allGpus() {
        return node.allocatable().gpus();
    }

    /** Some but not all of its GPUs free: what bin packing avoids leaving behind. */
    boolean fragmented() {
        return freeGpus > 0 && freeGpus < allGpus();
    }

    /** Whether a pod of {@code need} fits in what is free here. */
    boolean fits(Need need) {
        long[] asked = need.exact();
        if (asked == null || exact == null) {
            return fits(need.request());
        }
        for (int i = 0; i < asked.length; i++) {
            if (asked[i] > exact[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code request} fits in what is free here (every amount at most what is free). */
    boolean fits(ResourceList request) {
        for (Map.Entry<String, BigDecimal> e : request.amounts().entrySet()) {
            if (e.getValue().compareTo(free.get(e.getKey())) > 0) {
                return false;
            }
        }
        return true;
    }

    private static ResourceList positive(ResourceList diff) {
        boolean allPositive = true;
        for (BigDecimal v : diff.amounts().values()) {
            allPositive &= v.signum() > 0;
        }
        if (allPositive) {
            return diff;
        }
        TreeMap<String, BigDecimal> out = new TreeMap<>();
        diff.amounts().forEach((k, v) -> {
            if (v.signum() > 0) {
                out.put(k, v);
            }
        });
        return new ResourceList(out);
    }
}
