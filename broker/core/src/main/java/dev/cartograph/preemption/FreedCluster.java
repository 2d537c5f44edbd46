package dev.cartograph.preemption;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.ClusterCapacity;
import dev.cartograph.placement.PlanningCluster;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One cluster as it would be without some victims: a copy of its capacity index in which what each victim holds on a
 * node is free again (whether the agent already counts it among the node's allocated requests or the broker still
 * holds it as a reservation). Victims are taken off and put back one by one; the cluster itself is never changed.
 * Mutable; one planning at a time.
 */
final class FreedCluster {
    private final PlanningCluster cluster;
    private final ClusterCapacity copy = new ClusterCapacity();
    private final Map<String, ResourceList> freed = new HashMap<>();
    private final PlanningFleet fleet;

    FreedCluster(PlanningCluster cluster) {
        this.cluster = cluster;
        ClusterCapacity real = cluster.capacity();
        for (NodeState n : real.nodes()) {
            copy.put(n, real.reserved(n.name()));
        }
        this.fleet = new PlanningFleet(
                List.of(new PlanningCluster(cluster.name(), cluster.labels(), cluster.ready(), copy)));
    }

    /** The cluster, alone, with what is freed so far. */
    PlanningFleet fleet() {
        return fleet;
    }

    /** What the victim holds is free. */
    void free(Victim v) {
        v.perNode().forEach((node, amount) -> {
            freed.merge(node, amount, ResourceList::plus);
            refresh(node);
        });
    }

    /** What the victim holds is taken again (it is not a victim after all). */
    void restore(Victim v) {
        v.perNode().forEach((node, amount) -> {
            ResourceList left = freed.getOrDefault(node, ResourceList.EMPTY).minus(amount);
            if (positive(left).isEmpty()) {
                freed.remove(node);
            } else {
                freed.put(node, left);
            }
            refresh(node);
        });
    }

    private void refresh(String node) {
        NodeState n = cluster.capacity().node(node);
        if (n == null) {
            return; // the node left the cluster: nothing of it to free
        }
        ResourceList used = n.allocated().plus(cluster.capacity().reserved(node));
        ResourceList f = freed.get(node);
        if (f != null) {
            used = positive(used.minus(f));
        }
        copy.put(
                new NodeState(n.name(), n.labels(), n.taints(), n.ready(), n.schedulable(), n.allocatable(), used),
                ResourceList.EMPTY);
    }

    /** The amounts above zero (freeing more than a node counts as used leaves it with nothing used). */
    private static ResourceList positive(ResourceList r) {
        Map<String, BigDecimal> out = new TreeMap<>();
        r.amounts().forEach((k, v) -> {
            if (v.signum() > 0) {
                out.put(k, v);
            }
        });
        return new ResourceList(out);
    }
}
