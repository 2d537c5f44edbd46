package dev.cartograph.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GPU time counted by hand, in hourly UTC buckets. */
class LedgerTest {
    static final UsageKey A_ML_H100 = new UsageKey("team-a", "ml", "H100");
    static final UsageKey A_DEV_H100 = new UsageKey("team-a", "ml-dev", "H100");
    static final UsageKey B_CV_A100 = new UsageKey("team-b", "cv", "A100");

    static Instant at(String hhmm) {
        return Instant.parse("2026-12-06T" + hhmm + ":00Z");
    }

    static Ledger added(Accrual accrual) {
        assertThat(accrual).isInstanceOf(Accrual.Added.class);
        return ((Accrual.Added) accrual).ledger();
    }

    @Test
    void splitsAnIntervalAcrossTheHoursItSpans() {
        // 8 GPUs 10:40–12:10: 10:00 8×1200 s, 11:00 8×3600 s, 12:00 8×600 s; 43,200 GPU-s = 12 GPU-h
        Accrual accrual = Ledger.empty().held(Map.of(A_ML_H100, 8L), at("10:40"), at("12:10"));
        Ledger ledger = added(accrual);

        assertThat(ledger.bucket(at("10:00"))).isEqualTo(Map.of(A_ML_H100, 9_600_000L));
        assertThat(ledger.bucket(at("11:00"))).isEqualTo(Map.of(A_ML_H100, 28_800_000L));
        assertThat(ledger.bucket(at("12:00"))).isEqualTo(Map.of(A_ML_H100, 4_800_000L));
        assertThat(ledger.buckets()).hasSize(3);
        assertThat(ledger.totalMillis(at("00:00"))).isEqualTo(43_200_000L);
        UsageRow row = ledger.since(at("00:00"), Grouping.QUEUE).get(0);
        assertThat(row.gpuSeconds()).isEqualTo(43_200.0);
        assertThat(row.gpuHours()).isEqualTo(12.0);
        assertThat(((Accrual.Added) accrual).gpuMillis()).isEqualTo(Map.of(A_ML_H100, 43_200_000L));
        assertThat(((Accrual.Added) accrual).hours()).containsExactlyInAnyOrder(at("10:00"), at("11:00"), at("12:00"));
    }

    @Test
    void sumsByQueueOrByNamespacePerGpuModel() {
        // team-a: ml 8 H100 10:00–11:00 (28,800 GPU-s) + ml-dev 2 H100 10:30–11:00 (3,600 GPU-s) = 32,400 GPU-s = 9
        // GPU-h
        // team-b: cv 4 A100 10:00–10:15 (3,600 GPU-s = 1 GPU-h)
        Ledger ledger = added(Ledger.empty().held(Map.of(A_ML_H100, 8L), at("10:00"), at("11:00")));
        ledger = added(ledger.held(Map.of(A_DEV_H100, 2L), at("10:30"), at("11:00")));
        ledger = added(ledger.held(Map.of(B_CV_A100, 4L), at("10:00"), at("10:15")));

        assertThat(ledger.since(at("09:00"), Grouping.QUEUE))
                .containsExactly(
                        new UsageRow("team-a", "H100", 32_400_000L), new UsageRow("team-b", "A100", 3_600_000L));
        assertThat(ledger.since(at("09:00"), Grouping.NAMESPACE))
                .containsExactly(
                        new UsageRow("cv", "A100", 3_600_000L),
                        new UsageRow("ml", "H100", 28_800_000L),
                        new UsageRow("ml-dev", "H100", 7_200_000L / 2));
        assertThat(ledger.since(at("09:00"), Grouping.QUEUE).get(0).gpuHours()).isEqualTo(9.0);
    }

    @Test
    void sinceCountsFromTheStartOfTheHourItFallsIn() {
        // 1 GPU 10:00–12:00: since 11:30 counts the 11:00 bucket whole (3,600 GPU-s); since 12:00 nothing
        Ledger ledger = added(Ledger.empty().held(Map.of(A_ML_H100, 1L), at("10:00"), at("12:00")));

        assertThat(ledger.totalMillis(at("11:30"))).isEqualTo(3_600_000L);
        assertThat(ledger.totalMillis(at("12:00"))).isZero();
        assertThat(ledger.since(at("12:00"), Grouping.QUEUE)).isEmpty();
    }

    @Test
    void dropsBucketsOlderThanTheRetention() {
        // buckets at 10:00, 11:00, 12:00; now 12:30 and 2 h kept: from 10:30's hour (10:00) on, nothing dropped;
        // 1 h kept: from 11:00 on, 10:00 dropped (9,600 GPU-s)
        Ledger ledger = added(Ledger.empty().held(Map.of(A_ML_H100, 8L), at("10:40"), at("12:10")));

        assertThat(ledger.retain(at("12:30"), Duration.ofHours(2))).isSameAs(ledger);
        Ledger kept = ledger.retain(at("12:30"), Duration.ofHours(1));
        assertThat(kept.buckets().keySet()).containsExactly(at("11:00"), at("12:00"));
        assertThat(kept.totalMillis(Instant.EPOCH)).isEqualTo(43_200_000L - 9_600_000L);
        // 90 days kept, now 90 days after 13:00: from 13:00's hour on, nothing left
        assertThat(ledger.retain(at("13:00").plus(Duration.ofDays(90)), Duration.ofDays(90))
                        .buckets())
                .isEmpty();
    }

    @Test
    void refusesBackwardIntervalsAndImpossibleAmountsAddingNothing() {
        assertThat(Ledger.empty().held(Map.of(A_ML_H100, 1L), at("11:00"), at("10:00")))
                .isEqualTo(new Accrual.Refused(
                        "interval ends (2026-12-06T10:00:00Z) before it starts" + " (2026-12-06T11:00:00Z)"));
        assertThat(Ledger.empty().held(Map.of(A_ML_H100, -1L), at("10:00"), at("11:00")))
                .isInstanceOf(Accrual.Refused.class);
        assertThat(Ledger.empty().held(Map.of(A_ML_H100, Ledger.MAX_GPUS + 1), at("10:00"), at("11:00")))
                .isInstanceOf(Accrual.Refused.class);
    }

    @Test
    void holdingNothingOrForNoTimeLeavesTheLedgerAsItWas() {
        Ledger ledger = added(Ledger.empty().held(Map.of(A_ML_H100, 1L), at("10:00"), at("10:01")));

        assertThat(added(ledger.held(Map.of(A_ML_H100, 0L), at("10:01"), at("11:00"))))
                .isSameAs(ledger);
        assertThat(added(ledger.held(Map.of(A_ML_H100, 4L), at("10:01"), at("10:01"))))
                .isSameAs(ledger);
        assertThat(added(ledger.held(Map.of(), at("10:01"), at("11:00")))).isSameAs(ledger);
    }

    @Test
    void plusAddsBucketByBucketAndOfReadsBack() {
        // a: 1 GPU 10:00–10:30 (1,800 GPU-s); b: 1 GPU 10:30–11:30 (1,800 in 10:00, 1,800 in 11:00)
        Ledger a = added(Ledger.empty().held(Map.of(A_ML_H100, 1L), at("10:00"), at("10:30")));
        Ledger b = added(Ledger.empty().held(Map.of(A_ML_H100, 1L), at("10:30"), at("11:30")));

        Ledger sum = a.plus(b);
        assertThat(sum.bucket(at("10:00"))).isEqualTo(Map.of(A_ML_H100, 3_600_000L));
        assertThat(sum.bucket(at("11:00"))).isEqualTo(Map.of(A_ML_H100, 1_800_000L));
        assertThat(Ledger.of(sum.buckets())).isEqualTo(sum);
        assertThat(sum).isEqualTo(added(Ledger.empty().held(Map.of(A_ML_H100, 1L), at("10:00"), at("11:30"))));
    }

    @Test
    void ofRefusesBucketsOffTheHourAndNegativeAmounts() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Ledger.of(Map.of(at("10:30"), Map.of(A_ML_H100, 1L))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not start on a UTC hour");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Ledger.of(Map.of(at("10:00"), Map.of(A_ML_H100, -1L))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Ledger.of(Map.of(at("10:00"), Map.of(A_ML_H100, 0L))).buckets())
                .isEmpty();
        assertThat(List.of(Grouping.parse("Queue"), Grouping.parse("namespace"), Grouping.parse("x")))
                .containsExactly(
                        java.util.Optional.of(Grouping.QUEUE),
                        java.util.Optional.of(Grouping.NAMESPACE),
                        java.util.Optional.empty());
    }
}
