package dev.cartograph.broker.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers kept for a short time: each entry for {@code ttl} after it was written, at most {@code maxEntries}
 * (the least recently used goes first). Time comes from the injected clock. Thread-safe (one lock; entries
 * are small and lookups constant time).
 *
 * <p>Hand-written (a synchronized LRU {@link LinkedHashMap}) rather than Caffeine: a few lines, no
 * extra dependency on the broker's classpath, and time from a {@link Clock} without an adapter.
 */
public final class DecisionCache<K, V> {
    private record Entry<V>(V value, Instant expires) {}

    private final Clock clock;
    private final Duration ttl;
    private final Map<K, Entry<V>> entries;

    public DecisionCache(Clock clock, Duration ttl, int maxEntries) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("a cache's time to live cannot be negative, not " + ttl);
        }
        if (maxEntries < 1) {
            throw new IllegalArgumentException("a cache holds at least 1 entry, not " + maxEntries);
        }
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
                return size() > maxEntries;
            }
        };
    }

    /** The value kept for {@code key}, if it has not expired. */
    public synchronized Optional<V> get(K key) {
        Entry<V> e = entries.get(key);
        if (e == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(e.expires())) {
            entries.remove(key);
            return Optional.empty();
        }
        return Optional.of(e.value());
    }

    public synchronized void put(K key, V value) {
        if (!ttl.isZero()) {
            entries.put(key, new Entry<>(value, clock.instant().plus(ttl)));
        }
    }

    /**
     * The kept value, else {@code load}'s, kept only when {@code keep} says so. Loads outside the lock, so
     * a slow identity source holds up only the callers that need it (two may ask at once; both answers are
     * the same question's).
     */
    public V get(K key, Function<K, V> load, java.util.function.Predicate<V> keep) {
        Optional<V> kept = get(key);
        if (kept.isPresent()) {
            return kept.get();
        }
        V v = load.apply(key);
        if (keep.test(v)) {
            put(key, v);
        }
        return v;
    }

    public synchronized int size() {
        return entries.size();
    }
}
