package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.protocol.NodeState;
import java.util.Objects;

/**
 * {@code count} identical pods of one component instance that must all be placed: what each
 * requests and which nodes it may run on. Immutable (every part is an immutable value); thread-safe.
 */
public record PodDemand(
        String component, String instance, int count, ResourceList perPod, NodeConstraints constraints) {
    public PodDemand {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(instance, "instance");
        if (count < 0) {
            throw new IllegalArgumentException("count cannot be negative");
        }
        Objects.requireNonNull(perPod, "perPod");
        Objects.requireNonNull(constraints, "constraints");
    }

    /** The same pods, {@code other} of them. */
    public PodDemand withCount(int other) {
        return new PodDemand(component, instance, other, perPod, constraints);
    }

    /** The same pods, also selecting nodes with these labels (a placed gang's pin; they win over the pod's own). */
    public PodDemand pinnedTo(java.util.Map<String, String> labels) {
        if (labels.isEmpty()) {
            return this;
        }
        java.util.Map<String, String> selector = new java.util.TreeMap<>(constraints.nodeSelector());
        selector.putAll(labels);
        return new PodDemand(
                component,
                instance,
                count,
                perPod,
                new NodeConstraints(selector, constraints.requiredTerms(), constraints.tolerations()));
    }

    /** The GPU product the pod asks for by node selector, if any. */
    public String gpuProduct() {
        return constraints.nodeSelector().getOrDefault(NodeState.GPU_PRODUCT, "");
    }
}
