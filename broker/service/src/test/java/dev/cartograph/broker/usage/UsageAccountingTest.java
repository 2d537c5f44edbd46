package dev.cartograph.broker.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.usage.Grouping;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import dev.cartograph.usage.UsageRow;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The leader's accounting over ticks, with a store in memory: when it writes, what a restart reads back. */
@Timeout(10)
class UsageAccountingTest {
    static final UsageKey ML = new UsageKey("team-a", "ml", "H100");
    static final UsageKey CV = new UsageKey("team-b", "cv", "A100");

    final MemoryUsageStore store = new MemoryUsageStore();
    final Map<UsageKey, Long> metric = new HashMap<>();
    final UsageObserver observer = added -> added.forEach((k, ms) -> metric.merge(k, ms, Long::sum));

    static Instant at(String hhmmss) {
        return Instant.parse("2026-12-06T" + hhmmss + "Z");
    }

    UsageAccounting accounting() {
        return new UsageAccounting(store, observer, Duration.ofMinutes(1), Duration.ofDays(90));
    }

    /** Ticks every 10 s from {@code from} to {@code to} (inclusive) while {@code held} is held. */
    static void tickEvery10s(UsageAccounting a, Instant from, Instant to, Map<UsageKey, Long> held) {
        for (Instant t = from; !t.isAfter(to); t = t.plusSeconds(10)) {
            a.tick(t, true, () -> held);
        }
    }

    @Test
    void countsWhatWasHeldBetweenTicksAcrossHoursAndWritesAtMostOnceAMinute() {
        // 8 H100 held 10:40–12:10: 10:00 8×1200 s = 9,600; 11:00 8×3600 = 28,800; 12:00 8×600 = 4,800; 43,200 GPU-s
        UsageAccounting a = accounting();
        tickEvery10s(a, at("10:40:00"), at("12:10:00"), Map.of(ML, 8L));

        Ledger ledger = a.current().orElseThrow();
        assertThat(ledger.bucket(at("10:00:00"))).containsEntry(ML, 9_600_000L);
        assertThat(ledger.bucket(at("11:00:00"))).containsEntry(ML, 28_800_000L);
        assertThat(ledger.bucket(at("12:00:00"))).containsEntry(ML, 4_800_000L);
        assertThat(ledger.since(at("00:00:00"), Grouping.QUEUE))
                .containsExactly(new UsageRow("team-a", "H100", 43_200_000L));
        // the metric was raised by exactly what was added
        assertThat(metric).isEqualTo(Map.of(ML, 43_200_000L));
        // 90 minutes of ticks: read back at 10:40 (nothing to write yet), then one write a minute from 10:41 to 12:10
        assertThat(store.loads).isEqualTo(1);
        assertThat(store.writes).hasSize(90);
        // the store is a minute behind at most: at 12:10 it has everything up to 12:10
        assertThat(Ledger.of(store.hours)).isEqualTo(ledger);
    }

    @Test
    void aNewLeaderReadsBackWhatTheLastOneWroteAndGoesOn() {
        // leader 1: 4 A100 10:00–10:30 (7,200 GPU-s), then it loses the lease: what it counted is written at once
        UsageAccounting first = accounting();
        tickEvery10s(first, at("10:00:00"), at("10:30:00"), Map.of(CV, 4L));
        first.tick(at("10:30:05"), false, Map::of);
        assertThat(first.current()).isEmpty();
        assertThat(Ledger.of(store.hours).totalMillis(Instant.EPOCH)).isEqualTo(7_200_000L);

        // leader 2 (a restart, or another replica): reads back, then 4 A100 10:31–11:01 (7,200 more: 14,400 in all)
        UsageAccounting second = accounting();
        tickEvery10s(second, at("10:31:00"), at("11:01:00"), Map.of(CV, 4L));
        second.tick(at("11:01:10"), false, Map::of);

        assertThat(Ledger.of(store.hours).since(Instant.EPOCH, Grouping.NAMESPACE))
                .containsExactly(new UsageRow("cv", "A100", 14_400_000L));
        // 10:00 bucket: 7,200 + 4×1740 s (10:31–11:00) = 14,160; 11:00: 4×60 = 240
        assertThat(store.hours.get(at("10:00:00"))).isEqualTo(Map.of(CV, 14_160_000L));
        assertThat(store.hours.get(at("11:00:00"))).isEqualTo(Map.of(CV, 240_000L));
    }

    @Test
    void whileTheStoreCannotBeReadItCountsOnAndWritesNothingThenAddsItUp() {
        store.hours.put(at("09:00:00"), Map.of(ML, 1_000L)); // 1 GPU-s from an earlier leader
        store.down = true;
        UsageAccounting a = accounting();
        tickEvery10s(a, at("10:00:00"), at("10:05:00"), Map.of(ML, 2L)); // 2 GPUs × 300 s = 600 GPU-s
        assertThat(store.writes).isEmpty();
        assertThat(a.current()).isEmpty(); // the REST API reads the store meanwhile
        int loads = store.loads;
        a.tick(at("10:05:05"), true, () -> Map.of(ML, 2L)); // the last try was at 10:05:00: not again before 10:05:10
        assertThat(store.loads).isEqualTo(loads);

        store.down = false;
        a.tick(at("10:05:10"), true, () -> Map.of(ML, 2L)); // + 2 × 10 s

        assertThat(a.current().orElseThrow().totalMillis(Instant.EPOCH)).isEqualTo(1_000L + 620_000L);
        assertThat(store.writes).hasSize(1);
        assertThat(Ledger.of(store.hours)).isEqualTo(a.current().orElseThrow());
    }

    @Test
    void hoursPastTheRetentionAreDroppedAndRemovedFromTheStore() {
        store.hours.put(at("09:00:00"), Map.of(ML, 5_000L));
        store.hours.put(Instant.parse("2026-09-01T00:00:00Z"), Map.of(ML, 7_000L)); // > 90 days before
        UsageAccounting a = accounting();
        a.tick(at("10:00:00"), true, () -> Map.of(ML, 1L));

        assertThat(store.writes).containsExactly(Map.of(Instant.parse("2026-09-01T00:00:00Z"), Map.of()));
        assertThat(store.hours).containsOnlyKeys(at("09:00:00"));
        assertThat(a.current().orElseThrow().totalMillis(Instant.EPOCH)).isEqualTo(5_000L);
    }

    @Test
    void aFollowerCountsNothingAndTheClockGoingBackAddsNothing() {
        UsageAccounting a = accounting();
        a.tick(at("10:00:00"), false, () -> Map.of(ML, 8L));
        a.tick(at("10:10:00"), false, () -> Map.of(ML, 8L));
        assertThat(a.current()).isEmpty();
        assertThat(store.loads).isZero();

        a.tick(at("10:10:00"), true, () -> Map.of(ML, 8L));
        a.tick(at("10:09:00"), true, () -> Map.of(ML, 8L)); // back a minute: nothing
        a.tick(at("10:09:30"), true, () -> Map.of(ML, 8L)); // 8 × 30 s
        assertThat(a.current().orElseThrow().totalMillis(Instant.EPOCH)).isEqualTo(240_000L);
        assertThat(List.copyOf(metric.values())).containsExactly(240_000L);
    }
}
