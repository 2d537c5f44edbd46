package dev.cartograph.broker.usage;

import dev.cartograph.usage.UsageKey;
import java.util.Map;

/** Told what the leader's ledger added, per key (metrics). Called on the coordinator's thread. */
public interface UsageObserver {
    UsageObserver NONE = added -> {};

    /** GPU-milliseconds just added per key. */
    void added(Map<UsageKey, Long> gpuMillis);
}
