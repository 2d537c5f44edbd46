package dev.cartograph.fairshare;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code queues.cartograph.dev} object as the broker reads it (ADR 0006): the namespaces it serves (a list, or
 * a label selector on namespaces), its parent, its weight, its nominal GPU quota per model and how much more it may
 * borrow per model, and whom it may preempt. Immutable.
 *
 * @param namespaces     namespaces named in {@code spec.namespaces}
 * @param selector       {@code spec.namespaceSelector.matchLabels}; empty when the queue lists namespaces instead
 * @param parent         {@code spec.parent}; empty for a top-level queue
 * @param weight         {@code spec.weight}, greater than 0 (default 1)
 * @param nominal        {@code spec.quota.gpus}: GPUs per model ({@code nvidia.com/gpu.product}); a model not named
 *                       has 0
 * @param borrowingLimit {@code spec.borrowingLimit.gpus}: GPUs per model the queue may use above its nominal; a model
 *                       not named (or no {@code borrowingLimit} at all) is not limited
 */
public record QueueSpec(
        String name,
        List<String> namespaces,
        Map<String, String> selector,
        Optional<String> parent,
        double weight,
        Map<String, Long> nominal,
        Map<String, Long> borrowingLimit,
        Preemption preemption) {

    /** The queue of namespaces no queue names. */
    public static final String DEFAULT = "default";

    /** Whom a queue's waiting gangs may preempt (ADR 0006). */
    public enum Preemption {
        /** nobody */
        NEVER("Never"),
        /** gangs of other queues that borrow, while this queue stays within its nominal quota (the default) */
        RECLAIM_ONLY("ReclaimOnly"),
        /** as {@link #RECLAIM_ONLY}, and gangs of lower priority in this queue */
        LOWER_PRIORITY("LowerPriority");

        private final String word;

        Preemption(String word) {
            this.word = word;
        }

        /** As written in {@code spec.preemption}. */
        public String word() {
            return word;
        }

        static Optional<Preemption> of(String word) {
            for (Preemption p : values()) {
                if (p.word.equals(word)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }
    }

    public QueueSpec {
        Objects.requireNonNull(name, "name");
        namespaces = List.copyOf(namespaces);
        selector = Map.copyOf(selector);
        Objects.requireNonNull(parent, "parent");
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight must be a positive number: " + weight);
        }
        nominal = Map.copyOf(nominal);
        borrowingLimit = Map.copyOf(borrowingLimit);
        Objects.requireNonNull(preemption, "preemption");
    }

    /** The queue namespaces fall into when no queue names them, unless a Queue named {@code default} exists. */
    public static QueueSpec implicitDefault() {
        return new QueueSpec(DEFAULT, List.of(), Map.of(), Optional.empty(), 1, Map.of(), Map.of(), Preemption.NEVER);
    }

    /** Nominal GPUs of {@code model}. */
    public long nominal(String model) {
        return nominal.getOrDefault(model, 0L);
    }

    /** Most GPUs of {@code model} the queue may use: nominal plus borrowing limit; {@code Long.MAX_VALUE} if unlimited. */
    public long ceiling(String model) {
        Long limit = borrowingLimit.get(model);
        return limit == null ? Long.MAX_VALUE : nominal(model) + limit;
    }
}
