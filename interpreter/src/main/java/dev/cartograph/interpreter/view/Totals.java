package dev.cartograph.interpreter.view;

import dev.cartograph.interpreter.resources.ResourceList;

/** Sums over every desired pod of a workload. Immutable. */
public record Totals(long pods, ResourceList resources) {
    public long gpus() {
        return resources.gpus();
    }

    public long cpuMillis() {
        return resources.cpuMillis();
    }

    public long memoryBytes() {
        return resources.memoryBytes();
    }
}
