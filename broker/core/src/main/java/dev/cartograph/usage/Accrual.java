package dev.cartograph.usage;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** What {@link Ledger#held} made of holdings over an interval: a new ledger, or why not. */
public sealed interface Accrual {
    /**
     * @param ledger    the ledger with the interval added
     * @param gpuMillis what was added per key (only keys that holding GPUs added to)
     * @param hours     the buckets that changed
     */
    record Added(Ledger ledger, Map<UsageKey, Long> gpuMillis, Set<Instant> hours) implements Accrual {
        public Added {
            Objects.requireNonNull(ledger, "ledger");
            gpuMillis = Map.copyOf(gpuMillis);
            hours = Set.copyOf(hours);
        }
    }

    /** Nothing was added; {@code reason} names the bad input. */
    record Refused(String reason) implements Accrual {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
