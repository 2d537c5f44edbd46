package dev.cartograph.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * GPU time used, in hourly UTC buckets: bucket start → {@link UsageKey} → GPU-milliseconds (exact sums; the API
 * speaks GPU-seconds and GPU-hours). {@link #held} adds "these GPUs were held from t0 to t1", split across the hours
 * it spans; {@link #since} sums the buckets. Immutable and thread-safe: every change returns a new ledger (the
 * buckets an addition does not touch are shared).
 */
public final class Ledger {
    /** The most GPUs one key may be counted as holding at once (the ceiling of a summary's amounts). */
    public static final long MAX_GPUS = 1L << 20;

    private static final Ledger EMPTY = new Ledger(new TreeMap<>());

    private final NavigableMap<Instant, Map<UsageKey, Long>> buckets;

    private Ledger(NavigableMap<Instant, Map<UsageKey, Long>> buckets) {
        this.buckets = buckets;
    }

    public static Ledger empty() {
        return EMPTY;
    }

    /**
     * A ledger of these buckets, e.g. as read back from storage.
     *
     * @throws IllegalArgumentException when a bucket does not start on a UTC hour or an amount is negative
     */
    public static Ledger of(Map<Instant, Map<UsageKey, Long>> buckets) {
        NavigableMap<Instant, Map<UsageKey, Long>> copy = new TreeMap<>();
        buckets.forEach((hour, amounts) -> {
            if (!Hours.bucket(hour).equals(hour)) {
                throw new IllegalArgumentException("bucket " + hour + " does not start on a UTC hour");
            }
            amounts.forEach((key, ms) -> {
                if (ms < 0) {
                    throw new IllegalArgumentException("bucket " + hour + ", " + key + ": " + ms + " GPU-ms < 0");
                }
            });
            Map<UsageKey, Long> kept = new TreeMap<>(amounts);
            kept.values().removeIf(ms -> ms == 0);
            if (!kept.isEmpty()) {
                copy.put(hour, Collections.unmodifiableMap(kept));
            }
        });
        return new Ledger(copy);
    }

    /**
     * Adds {@code gpus} (per key, GPUs held at once) held over {@code [from, to)}. Refused, leaving nothing added,
     * when {@code to} is before {@code from} or an amount is negative or above {@link #MAX_GPUS}.
     */
    public Accrual held(Map<UsageKey, Long> gpus, Instant from, Instant to) {
        if (to.isBefore(from)) {
            return new Accrual.Refused("interval ends (" + to + ") before it starts (" + from + ")");
        }
        for (Map.Entry<UsageKey, Long> e : gpus.entrySet()) {
            if (e.getValue() < 0 || e.getValue() > MAX_GPUS) {
                return new Accrual.Refused(e.getKey() + ": " + e.getValue() + " GPUs is outside 0.." + MAX_GPUS);
            }
        }
        NavigableMap<Instant, Map<UsageKey, Long>> next = new TreeMap<>(buckets);
        Map<UsageKey, Long> added = new HashMap<>();
        Set<Instant> hours = new HashSet<>();
        Hours.split(from, to).forEach((hour, ms) -> {
            Map<UsageKey, Long> bucket = new TreeMap<>(next.getOrDefault(hour, Map.of()));
            gpus.forEach((key, n) -> {
                if (n > 0) {
                    bucket.merge(key, n * ms, Long::sum);
                    added.merge(key, n * ms, Long::sum);
                    hours.add(hour);
                }
            });
            if (!bucket.isEmpty()) {
                next.put(hour, Collections.unmodifiableMap(bucket));
            }
        });
        return new Accrual.Added(hours.isEmpty() ? this : new Ledger(next), added, hours);
    }

    /** Both ledgers' GPU time, summed per bucket and key. */
    public Ledger plus(Ledger other) {
        NavigableMap<Instant, Map<UsageKey, Long>> next = new TreeMap<>(buckets);
        other.buckets.forEach((hour, amounts) -> {
            Map<UsageKey, Long> bucket = new TreeMap<>(next.getOrDefault(hour, Map.of()));
            amounts.forEach((key, ms) -> bucket.merge(key, ms, Long::sum));
            next.put(hour, Collections.unmodifiableMap(bucket));
        });
        return new Ledger(next);
    }

    /** Without the buckets that ended {@code retention} or longer before {@code now}. */
    public Ledger retain(Instant now, Duration retention) {
        Instant oldestKept = Hours.bucket(now.minus(retention));
        if (buckets.isEmpty() || !buckets.firstKey().isBefore(oldestKept)) {
            return this;
        }
        return new Ledger(new TreeMap<>(buckets.tailMap(oldestKept, true)));
    }

    /**
     * The GPU time of the buckets from the one {@code since} falls in, summed per queue or namespace and GPU model;
     * sorted by group, then model. Counted in whole hours: the hour {@code since} falls in counts whole.
     */
    public List<UsageRow> since(Instant since, Grouping by) {
        Map<List<String>, Long> sums = new TreeMap<>(
                Comparator.<List<String>, String>comparing(k -> k.get(0)).thenComparing(k -> k.get(1)));
        buckets.tailMap(Hours.bucket(since), true)
                .values()
                .forEach(amounts -> amounts.forEach(
                        (key, ms) -> sums.merge(List.of(key.group(by), key.gpuModel()), ms, Long::sum)));
        List<UsageRow> rows = new ArrayList<>();
        sums.forEach((k, ms) -> rows.add(new UsageRow(k.get(0), k.get(1), ms)));
        return List.copyOf(rows);
    }

    /** The GPU-milliseconds of every key in the buckets from the one {@code since} falls in. */
    public long totalMillis(Instant since) {
        long total = 0;
        for (Map<UsageKey, Long> amounts :
                buckets.tailMap(Hours.bucket(since), true).values()) {
            for (long ms : amounts.values()) {
                total += ms;
            }
        }
        return total;
    }

    /** Every bucket, oldest first: start → key → GPU-milliseconds (none empty). */
    public NavigableMap<Instant, Map<UsageKey, Long>> buckets() {
        return Collections.unmodifiableNavigableMap(buckets);
    }

    /** One bucket's GPU-milliseconds per key; empty when nothing was held in that hour. */
    public Map<UsageKey, Long> bucket(Instant hour) {
        return buckets.getOrDefault(hour, Map.of());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ledger other && buckets.equals(other.buckets);
    }

    @Override
    public int hashCode() {
        return Objects.hash(buckets);
    }

    @Override
    public String toString() {
        return "Ledger" + buckets;
    }
}
