package dev.cartograph.broker.usage;

import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import java.time.Instant;
import java.util.Map;

/** Where the leader's GPU time is kept: the compacted {@code P.usage} topic in the service, a map in tests. */
public interface UsageStore {
    /** Every hour kept, as last written. Throws when it cannot be read now (the caller tries again later). */
    Ledger load() throws Exception;

    /**
     * Writes each hour's running totals (GPU-milliseconds per key, replacing what the hour had); an empty map removes
     * the hour. Returns once durable; throws when it is not.
     */
    void write(Map<Instant, Map<UsageKey, Long>> hours) throws Exception;

    /** A store that keeps nothing (usage accounting off). */
    UsageStore NONE = new UsageStore() {
        @Override
        public Ledger load() {
            return Ledger.empty();
        }

        @Override
        public void write(Map<Instant, Map<UsageKey, Long>> hours) {}
    };
}
