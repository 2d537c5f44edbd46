package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One node as the planner indexes it: the node as its agent reported it, what the broker reserved
 * there, its {@link NodeGroup} (none when the node is not ready or cordoned: nothing may be placed
 * there), and what is free for placement — allocatable minus the agent's allocation minus the
 * reservation, never below zero. The free GPUs, CPU, memory and pod slots are kept as {@link Units}
 * in the object itself when they have that form (the planner reads them for every node it looks at);
 * the free amounts as exact decimals are worked out when first asked for. GPUs are whole devices, as
 * Kubernetes requires of extended resources. Immutable but for that cache; one writer.
 */
final class Slot {
    private static final long[] NONE = new long[4];

    private final NodeState node;
    private final ResourceList reserved;
    private final NodeGroup group;
    private final boolean exact;
    private final long gpuUnits;
    private final long cpuUnits;
    private final long memoryUnits;
    private final long podUnits;
    private final long freeGpus;
    private final long freeCpu;
    private final long allGpus;
    private ResourceList free;

    private Slot(NodeState node, ResourceList reserved, NodeGroup group, long[] units, ResourceList free) {
        this.node = node;
        this.reserved = reserved;
        this.group = group;
        this.exact = units != null;
        this.free = free;
        if (exact) {
            gpuUnits = units[0];
            cpuUnits = units[1];
            memoryUnits = units[2];
            podUnits = units[3];
            freeGpus = units[0];
            freeCpu = units[1];
        } else {
            gpuUnits = cpuUnits = memoryUnits = podUnits = 0;
            freeGpus = Math.max(
                    0, node.allocatable().gpus() - allocated(node, reserved).gpus());
            freeCpu = free.cpuMillis();
        }
        allGpus = node.allocatable().gpus();
    }

    /** @param units {@link Units#of}{@code (r, false)} for a list {@code r}, perhaps remembered (it is only read) */
    static Slot of(NodeState node, ResourceList reserved, NodeGroup group, Function<ResourceList, long[]> units) {
        long[] a = units.apply(node.allocatable());
        long[] b = units.apply(node.allocated());
        long[] c = reserved.isEmpty() ? NONE : units.apply(reserved);
        if (a == null || b == null || c == null) {
            return new Slot(
                    node, reserved, group, null, positive(node.allocatable().minus(allocated(node, reserved))));
        }
        long[] u = new long[4];
        for (int i = 0; i < u.length; i++) {
            u[i] = Math.max(0, a[i] - b[i] - c[i]);
        }
        return new Slot(node, reserved, group, u, null);
    }

    private static ResourceList allocated(NodeState node, ResourceList reserved) {
        return reserved.isEmpty() ? node.allocated() : node.allocated().plus(reserved);
    }

    NodeState node() {
        return node;
    }

    ResourceList reserved() {
        return reserved;
    }

    NodeGroup group() {
        return group;
    }

    String name() {
        return node.name();
    }

    long freeGpus() {
        return freeGpus;
    }

    /** Free CPU in millicores. */
    long freeCpu() {
        return freeCpu;
    }

    long allGpus() {
        return allGpus;
    }

    /** What is free, as exact decimals. */
    ResourceList free() {
        if (free == null) {
            free = positive(node.allocatable().minus(allocated(node, reserved)));
        }
        return free;
    }

    /** What is free in {@link Units}, or null. */
    long[] units() {
        return exact ? new long[] {gpuUnits, cpuUnits, memoryUnits, podUnits} : null;
    }

    /** Some but not all of its GPUs free: what bin packing avoids leaving behind. */
    boolean fragmented() {
        return freeGpus > 0 && freeGpus < allGpus;
    }

    /** Whether a pod of {@code need} fits in what is free here. */
    boolean fits(Need need) {
        long[] asked = need.exact();
        if (asked == null || !exact) {
            return fits(need.request());
        }
        return asked[0] <= gpuUnits && asked[1] <= cpuUnits && asked[2] <= memoryUnits && asked[3] <= podUnits;
    }

    /** Whether {@code request} fits in what is free here (every amount at most what is free). */
    boolean fits(ResourceList request) {
        ResourceList room = free();
        for (Map.Entry<String, BigDecimal> e : request.amounts().entrySet()) {
            if (e.getValue().compareTo(room.get(e.getKey())) > 0) {
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
