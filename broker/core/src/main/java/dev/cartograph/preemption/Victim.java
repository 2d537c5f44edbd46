package dev.cartograph.preemption;

import dev.cartograph.interpreter.resources.ResourceList;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A placed gang that preemption may take off its cluster (ADR 0006): its queue and priority, what it holds on which
 * node of its cluster, the GPUs per model that makes, when it was placed and whether its pods have started. Immutable.
 *
 * @param uid      its placement's id
 * @param name     {@code namespace/name} of its hub object, for reasons
 * @param perNode  what it holds per node of {@code cluster} (its placement's reservation per node)
 * @param gpus     GPUs per model ({@code nvidia.com/gpu.product}) it holds
 * @param placedAt when it was placed (the most recently placed goes first)
 * @param started  whether its copy runs (a gang not started yet is taken first: it loses the least work)
 */
public record Victim(
        String uid,
        String name,
        String queue,
        int priority,
        String cluster,
        Map<String, ResourceList> perNode,
        Map<String, Long> gpus,
        Instant placedAt,
        boolean started) {
    public Victim {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(cluster, "cluster");
        perNode = Map.copyOf(perNode);
        gpus = Map.copyOf(gpus);
        Objects.requireNonNull(placedAt, "placedAt");
    }

    /** All the GPUs it holds, of any model. */
    public long gpuCount() {
        return gpus.values().stream().mapToLong(Long::longValue).sum();
    }
}
