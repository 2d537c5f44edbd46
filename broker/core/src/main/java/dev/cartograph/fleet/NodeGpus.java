package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import java.util.HashMap;
import java.util.Map;

/**
 * One node's GPUs as the fleet views count them ({@link FleetReport}, {@link DomainReport}): every GPU it offers
 * ({@code total}), what bound pods request ({@code allocated}), what the broker has booked on it and the agent not yet
 * accounted ({@code reserved}), and what is left ({@code free}) — only on a ready, schedulable node of a ready cluster
 * ({@code usable}), never below zero. Immutable.
 */
record NodeGpus(boolean usable, long total, long allocated, long reserved, long free) {

    /** @param booked what the broker's reservations name on this node ({@link #bookedPerNode}) */
    static NodeGpus of(NodeState n, boolean clusterReady, ResourceList booked) {
        boolean usable = clusterReady && n.ready() && n.schedulable();
        long total = n.allocatable().gpus();
        long allocated = n.allocated().gpus();
        long reserved = booked.gpus();
        return new NodeGpus(usable, total, allocated, reserved, usable ? Math.max(0, total - allocated - reserved) : 0);
    }

    /** Whether every GPU of the node is free (a node without GPUs never is). */
    boolean wholeFree() {
        return total > 0 && free == total;
    }

    /** Per cluster and node, what the open reservations book there, as the reservations name the nodes. */
    static Map<String, Map<String, ResourceList>> bookedPerNode(FleetSnapshot snapshot) {
        Map<String, Map<String, ResourceList>> booked = new HashMap<>();
        for (Reservation r : snapshot.reservations().values()) {
            Map<String, ResourceList> nodes = booked.computeIfAbsent(r.cluster(), k -> new HashMap<>());
            r.perNode().forEach((node, amount) -> nodes.merge(node, amount, ResourceList::plus));
        }
        return booked;
    }
}
