package dev.cartograph.broker.usage;

import dev.cartograph.usage.Accrual;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GPU time as the leader counts it (ADR 0006): at every coordinator tick while this instance is active, what was held
 * at the previous tick is added to a {@link Ledger} for the time since; the hours changed are written to the
 * {@link UsageStore} at most every {@code flushEvery} and once more when this instance stops being active. When it
 * becomes active it reads the store back and adds what it counted meanwhile, writing nothing before that, so a
 * restart or a leader change loses at most what was counted since the last write. Hours past {@code retention} are
 * dropped (and removed from the store). Coordinator thread only, but {@link #current} is thread-safe.
 */
public final class UsageAccounting {
    private static final Logger LOG = LoggerFactory.getLogger(UsageAccounting.class);
    public static final Duration FLUSH_EVERY = Duration.ofMinutes(1);
    public static final Duration RETENTION = Duration.ofDays(90);
    /** How soon reading the store back is tried again after it failed (each try may block the tick for seconds). */
    static final Duration LOAD_AGAIN_AFTER = Duration.ofSeconds(10);

    private final UsageStore store;
    private final UsageObserver observer;
    private final Duration flushEvery;
    private final Duration retention;

    private boolean active;
    private boolean loaded;
    private Ledger ledger = Ledger.empty();
    private Map<UsageKey, Long> holdings = Map.of();
    private Instant sampled;
    private Instant written = Instant.MIN;
    private Instant loadAgainAt = Instant.MIN;
    private final Set<Instant> changed = new HashSet<>();
    /** The leader's ledger once read back; empty while this instance does not account. */
    private volatile Optional<Ledger> published = Optional.empty();

    public UsageAccounting(UsageStore store, UsageObserver observer, Duration flushEvery, Duration retention) {
        this.store = store;
        this.observer = observer;
        this.flushEvery = flushEvery;
        this.retention = retention;
    }

    /** No accounting at all (tests, and a coordinator nobody gave one). */
    public static UsageAccounting off() {
        return new UsageAccounting(UsageStore.NONE, UsageObserver.NONE, FLUSH_EVERY, RETENTION);
    }

    /**
     * One coordinator tick.
     *
     * @param active   whether this instance acts as leader now
     * @param holdings what is held now per key, in GPUs (asked only while active)
     */
    public void tick(Instant now, boolean active, Supplier<Map<UsageKey, Long>> holdings) {
        if (!active) {
            if (this.active) {
                stop(now);
            }
            return;
        }
        if (!this.active) {
            this.active = true;
            sampled = now;
            written = now;
        }
        accrue(now);
        this.holdings = Map.copyOf(holdings.get());
        if (!loaded && !now.isBefore(loadAgainAt)) {
            load(now);
        }
        if (loaded && !changed.isEmpty() && !now.isBefore(written.plus(flushEvery))) {
            write(now);
        }
        if (loaded) {
            published = Optional.of(ledger);
        }
    }

    /** The leader's ledger (up to the last tick) while this instance accounts; empty otherwise. Thread-safe. */
    public Optional<Ledger> current() {
        return published;
    }

    private void accrue(Instant now) {
        if (now.isAfter(sampled)) {
            Accrual a = ledger.held(holdings, sampled, now);
            if (a instanceof Accrual.Added added) {
                ledger = added.ledger();
                changed.addAll(added.hours());
                if (!added.gpuMillis().isEmpty()) {
                    observer.added(added.gpuMillis());
                }
            } else if (a instanceof Accrual.Refused r) {
                LOG.warn("usage from {} to {} not counted: {}", sampled, now, r.reason());
            }
        }
        sampled = now;
    }

    private void load(Instant now) {
        try {
            Ledger stored = store.load();
            ledger = stored.plus(ledger);
            loaded = true;
            LOG.info(
                    "usage read back: {} hours; counted since taking the lead added",
                    stored.buckets().size());
            write(now); // what was counted before the store was read, and hours past the retention
        } catch (Exception e) {
            loadAgainAt = now.plus(LOAD_AGAIN_AFTER);
            LOG.warn(
                    "usage cannot be read back yet ({}); counting on, nothing written until it is; trying again in {}",
                    e.toString(),
                    LOAD_AGAIN_AFTER);
        }
    }

    private void write(Instant now) {
        Ledger kept = ledger.retain(now, retention);
        for (Instant hour : ledger.buckets().keySet()) {
            if (!kept.buckets().containsKey(hour)) {
                changed.add(hour);
            }
        }
        ledger = kept;
        if (changed.isEmpty()) {
            return;
        }
        Map<Instant, Map<UsageKey, Long>> hours = new TreeMap<>();
        changed.forEach(hour -> hours.put(hour, ledger.bucket(hour)));
        written = now; // a failed write is tried again after flushEvery, not at every tick
        try {
            store.write(hours);
            changed.clear();
        } catch (Exception e) {
            LOG.warn("usage of {} hours not written ({}); trying again in {}", hours.size(), e.toString(), flushEvery);
        }
    }

    private void stop(Instant now) {
        if (loaded && !changed.isEmpty()) {
            write(now);
        }
        active = false;
        loaded = false;
        loadAgainAt = Instant.MIN;
        ledger = Ledger.empty();
        holdings = Map.of();
        changed.clear();
        published = Optional.empty();
    }
}
