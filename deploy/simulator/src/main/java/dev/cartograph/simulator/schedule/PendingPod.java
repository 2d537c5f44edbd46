package dev.cartograph.simulator.schedule;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * One pending pod as the scheduler sees it: what it requests of a node ({@code requests} excludes the
 * pod slot, which {@link #withSlot} adds) and which nodes it may run on. Immutable.
 */
public record PendingPod(PodRef pod, ResourceList requests, NodeConstraints constraints) {
    private static final ResourceList ONE_SLOT = new ResourceList(Map.of(ResourceList.PODS, BigDecimal.ONE));

    public PendingPod {
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(constraints, "constraints");
    }

    /** The requests plus one pod slot, as the node's free amounts are counted. */
    public ResourceList withSlot() {
        return requests.plus(ONE_SLOT);
    }
}
