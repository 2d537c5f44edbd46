package dev.cartograph.protocol;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One node as placement sees it: labels (GPU product {@code nvidia.com/gpu.product}, memory, count…),
 * taints, readiness, cordon, and per resource what it offers ({@code allocatable}) and what
 * non-terminal pods bound to it request ({@code allocated}). Immutable.
 */
public record NodeState(
        String name,
        Map<String, String> labels,
        List<Taint> taints,
        boolean ready,
        boolean schedulable,
        ResourceList allocatable,
        ResourceList allocated) {

    public static final String GPU_PRODUCT = "nvidia.com/gpu.product";

    public NodeState {
        Objects.requireNonNull(name, "node name");
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
        Objects.requireNonNull(allocatable, "allocatable");
        Objects.requireNonNull(allocated, "allocated");
    }

    /** What is left: allocatable minus allocated (never below zero). */
    public ResourceList free() {
        ResourceList diff = allocatable.minus(allocated);
        java.util.Map<String, java.math.BigDecimal> positive = new java.util.TreeMap<>();
        diff.amounts().forEach((k, v) -> {
            if (v.signum() > 0) {
                positive.put(k, v);
            }
        });
        return new ResourceList(positive);
    }

    public String gpuProduct() {
        return labels.getOrDefault(GPU_PRODUCT, "");
    }
}
