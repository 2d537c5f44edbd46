package dev.cartograph.simulator.schedule;

import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/** Whether one node can take one pod, given the node's free amounts. Pure and thread-safe. */
final class NodeFit {
    private NodeFit() {}

    /** The first reason the node cannot take the pod, or empty when it can. */
    static Optional<Misfit> misfit(NodeInfo node, ResourceList free, PendingPod pod) {
        if (!node.ready()) {
            return Optional.of(Misfit.NOT_READY);
        }
        if (node.unschedulable()) {
            return Optional.of(Misfit.UNSCHEDULABLE);
        }
        if (!pod.constraints().selects(node.labels())) {
            return Optional.of(Misfit.NODE_SELECTOR);
        }
        if (!pod.constraints().affinityHolds(node.labels(), node.name())) {
            return Optional.of(Misfit.NODE_AFFINITY);
        }
        if (pod.constraints().untolerated(node.taints()).isPresent()) {
            return Optional.of(Misfit.UNTOLERATED_TAINT);
        }
        return pod.withSlot().fitsIn(free) ? Optional.empty() : Optional.of(Misfit.INSUFFICIENT);
    }

    /** The resources of which the pod asks more than {@code free} holds, e.g. {@code nvidia.com/gpu}. */
    static java.util.List<String> lacking(ResourceList free, PendingPod pod) {
        return pod.withSlot().amounts().entrySet().stream()
                .filter(e -> e.getValue().compareTo(free.get(e.getKey())) > 0)
                .map(Map.Entry::getKey)
                .toList();
    }

    static BigDecimal orZero(BigDecimal value) {
        return value.signum() < 0 ? BigDecimal.ZERO : value;
    }
}
