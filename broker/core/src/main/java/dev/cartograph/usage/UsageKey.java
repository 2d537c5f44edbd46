package dev.cartograph.usage;

import java.util.Comparator;
import java.util.Objects;

/**
 * Whose GPUs of which model: the queue a gang was counted in, its hub namespace, and the GPU model
 * ({@code nvidia.com/gpu.product} of the nodes it holds; {@code ""} for nodes without the label). Immutable.
 */
public record UsageKey(String queue, String namespace, String gpuModel) implements Comparable<UsageKey> {
    private static final Comparator<UsageKey> ORDER = Comparator.comparing(UsageKey::queue)
            .thenComparing(UsageKey::namespace)
            .thenComparing(UsageKey::gpuModel);

    public UsageKey {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(gpuModel, "gpuModel");
    }

    /** The name this key has when usage is grouped {@code by} queue or by namespace. */
    public String group(Grouping by) {
        return by == Grouping.QUEUE ? queue : namespace;
    }

    @Override
    public int compareTo(UsageKey other) {
        return ORDER.compare(this, other);
    }
}
