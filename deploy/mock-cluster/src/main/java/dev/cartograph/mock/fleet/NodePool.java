package dev.cartograph.mock.fleet;

import dev.cartograph.interpreter.scheduling.Taint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A group of identical simulated nodes. Immutable.
 *
 * @param gpuProduct {@code nvidia.com/gpu.product} of the nodes; present exactly when {@code gpus > 0}
 * @param gpus       GPUs per node
 * @param cpu        allocatable CPU per node, a Kubernetes quantity ({@code "192"}, {@code "500m"})
 * @param memory     allocatable memory per node, a Kubernetes quantity ({@code "2Ti"})
 * @param usedGpus   per node, in node order, GPUs already taken by pre-existing pods; one entry per node
 * @param labels     more labels on every node of the pool (a topology domain: {@code nvidia.com/gpu.clique}, a rack,
 *                   a zone); the hostname and GPU labels are set anyway
 */
public record NodePool(
        String name,
        int count,
        Optional<String> gpuProduct,
        int gpus,
        String cpu,
        String memory,
        int pods,
        List<Integer> usedGpus,
        List<Taint> taints,
        java.util.Map<String, String> labels) {

    /** A pool without labels of its own. */
    public NodePool(
            String name,
            int count,
            Optional<String> gpuProduct,
            int gpus,
            String cpu,
            String memory,
            int pods,
            List<Integer> usedGpus,
            List<Taint> taints) {
        this(name, count, gpuProduct, gpus, cpu, memory, pods, usedGpus, taints, java.util.Map.of());
    }

    public NodePool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(gpuProduct, "gpuProduct");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(memory, "memory");
        usedGpus = List.copyOf(usedGpus);
        taints = List.copyOf(taints);
        labels = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(labels));
        if (count < 1 || gpus < 0 || pods < 1) {
            throw new IllegalArgumentException("pool " + name + ": count and pods must be positive, gpus not negative");
        }
        if (gpuProduct.isPresent() != (gpus > 0)) {
            throw new IllegalArgumentException("pool " + name + ": gpuProduct is required exactly when gpus > 0");
        }
        if (usedGpus.size() != count || usedGpus.stream().anyMatch(u -> u < 0 || u > gpus)) {
            throw new IllegalArgumentException(
                    "pool " + name + ": usedGpus needs " + count + " entries between 0 and " + gpus);
        }
    }

    /** GPUs free on each node, in node order. */
    public List<Integer> freeGpus() {
        return usedGpus.stream().map(u -> gpus - u).toList();
    }
}
