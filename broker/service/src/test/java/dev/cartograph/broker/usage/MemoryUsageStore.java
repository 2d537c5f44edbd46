package dev.cartograph.broker.usage;

import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A {@link UsageStore} in memory, as a compacted topic keeps it (newest per hour), with every write remembered. */
public final class MemoryUsageStore implements UsageStore {
    public final Map<Instant, Map<UsageKey, Long>> hours = new TreeMap<>();
    public final List<Map<Instant, Map<UsageKey, Long>>> writes = new ArrayList<>();
    public boolean down;
    public int loads;

    @Override
    public synchronized Ledger load() throws Exception {
        loads++;
        if (down) {
            throw new java.io.IOException("store down");
        }
        return Ledger.of(hours);
    }

    @Override
    public synchronized void write(Map<Instant, Map<UsageKey, Long>> written) throws Exception {
        if (down) {
            throw new java.io.IOException("store down");
        }
        writes.add(Map.copyOf(written));
        written.forEach((hour, amounts) -> {
            if (amounts.isEmpty()) {
                hours.remove(hour);
            } else {
                hours.put(hour, Map.copyOf(amounts));
            }
        });
    }
}
