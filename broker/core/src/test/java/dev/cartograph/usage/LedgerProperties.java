package dev.cartograph.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Splitting where one likes never changes what is counted, and nothing is ever negative. */
class LedgerProperties {
    static final UsageKey KEY = new UsageKey("team-a", "ml", "H100");
    static final long START = Instant.parse("2026-12-06T00:00:00Z").toEpochMilli();
    static final long THREE_DAYS = 3 * 24 * 3_600_000L;

    static Ledger added(Ledger ledger, long gpus, long from, long to) {
        return ((Accrual.Added) ledger.held(Map.of(KEY, gpus), Instant.ofEpochMilli(from), Instant.ofEpochMilli(to)))
                .ledger();
    }

    @Property(tries = 500)
    void splittingAnIntervalAnywhereGivesTheSameBucketsAndTotals(
            @ForAll @LongRange(min = 0, max = THREE_DAYS) long a,
            @ForAll @LongRange(min = 0, max = THREE_DAYS) long b,
            @ForAll @LongRange(min = 0, max = THREE_DAYS) long c,
            @ForAll @LongRange(min = 0, max = 64) long gpus) {
        long[] t = java.util.stream.LongStream.of(a, b, c)
                .sorted()
                .map(x -> START + x)
                .toArray();

        Ledger whole = added(Ledger.empty(), gpus, t[0], t[2]);
        Ledger split = added(added(Ledger.empty(), gpus, t[0], t[1]), gpus, t[1], t[2]);

        assertThat(split).isEqualTo(whole);
        assertThat(whole.totalMillis(Instant.EPOCH)).isEqualTo(gpus * (t[2] - t[0]));
        assertThat(added(Ledger.empty(), gpus, t[0], t[1]).plus(added(Ledger.empty(), gpus, t[1], t[2])))
                .isEqualTo(whole);
    }

    @Property(tries = 300)
    void totalsAreNeverNegativeAndNeverShrinkAsMoreIsHeld(
            @ForAll @LongRange(min = 0, max = THREE_DAYS) long from,
            @ForAll @LongRange(min = 0, max = THREE_DAYS) long length,
            @ForAll @LongRange(min = 0, max = 1024) long gpus,
            @ForAll @LongRange(min = 0, max = THREE_DAYS) long since) {
        Ledger before = added(Ledger.empty(), 3, START, START + THREE_DAYS / 2);
        Ledger after = added(before, gpus, START + from, START + from + length);
        Instant s = Instant.ofEpochMilli(START + since);

        assertThat(after.totalMillis(s)).isGreaterThanOrEqualTo(before.totalMillis(s));
        assertThat(after.buckets().values())
                .allSatisfy(bucket -> assertThat(bucket.values())
                        .allSatisfy(ms -> assertThat(ms).isPositive()));
        assertThat(after.since(s, Grouping.NAMESPACE))
                .allSatisfy(row -> assertThat(row.gpuMillis()).isNotNegative());
    }
}
