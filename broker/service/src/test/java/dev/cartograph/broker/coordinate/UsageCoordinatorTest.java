package dev.cartograph.broker.coordinate;

import static dev.cartograph.broker.coordinate.FairShareCoordinatorTest.gang;
import static dev.cartograph.broker.coordinate.FairShareCoordinatorTest.queue;
import static dev.cartograph.broker.coordinate.FairShareCoordinatorTest.queues;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.usage.MemoryUsageStore;
import dev.cartograph.broker.usage.UsageAccounting;
import dev.cartograph.broker.usage.UsageObserver;
import dev.cartograph.usage.Grouping;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import dev.cartograph.usage.UsageRow;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The coordinator's tick feeds usage accounting with what each queue and namespace holds (ADR 0006). */
@Timeout(60)
class UsageCoordinatorTest extends CoordinatorHarness {
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    final MemoryUsageStore store = new MemoryUsageStore();
    final UsageAccounting usage =
            new UsageAccounting(store, UsageObserver.NONE, Duration.ofMinutes(1), Duration.ofDays(90));
    long sequence = 1;

    /** A tick at {@code at}, after a fresh heartbeat from east (so nothing fails over). */
    void tickAt(String hhmm) {
        now = Instant.parse("2026-12-02T" + hhmm + ":00Z");
        step(new Input.Cluster(cluster("east", ++sequence, now, 0, 0, 0, 0, 0, 0)), new Input.Tick());
    }

    @Test
    void theLeaderCountsWhatEachQueueAndNamespaceHoldsPerModelUntilAGangIsDeleted() {
        coordinator.account(usage);
        now = Instant.parse("2026-12-02T12:57:00Z");
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0, 0, 0, 0, 0)));
        step(queues(queue("team-a", "team-a", 1, "")));
        step(
                new Input.HubChanged(gang("team-a", "a1", T0, 8)),
                new Input.HubChanged(gang("ml", "m1", T0, 8)),
                new Input.HubChanged(gang("ml", "m2", T0, 4)));
        tickAt("12:57"); // accounting starts: team-a/team-a 8, default/ml 12
        tickAt("13:00");
        tickAt("13:02");
        step(new Input.HubDeleted(gang("team-a", "a1", T0, 8))); // deleting: holds nothing from now
        tickAt("13:02");
        tickAt("13:04");

        // by hand: a1 8 GPUs 12:57–13:02 = 2,400 GPU-s (12:00: 8×180 = 1,440; 13:00: 8×120 = 960);
        // m1 + m2 12 GPUs 12:57–13:04 = 5,040 GPU-s (12:00: 12×180 = 2,160; 13:00: 12×240 = 2,880)
        Ledger ledger = usage.current().orElseThrow();
        UsageKey a = new UsageKey("team-a", "team-a", H100);
        UsageKey ml = new UsageKey("default", "ml", H100);
        assertThat(ledger.bucket(Instant.parse("2026-12-02T12:00:00Z")))
                .isEqualTo(Map.of(a, 1_440_000L, ml, 2_160_000L));
        assertThat(ledger.bucket(Instant.parse("2026-12-02T13:00:00Z"))).isEqualTo(Map.of(a, 960_000L, ml, 2_880_000L));
        assertThat(ledger.since(T0, Grouping.QUEUE))
                .containsExactly(new UsageRow("default", H100, 5_040_000L), new UsageRow("team-a", H100, 2_400_000L));
        // written at 13:00, 13:02 and 13:04 (a minute or more apart): the store has it all
        assertThat(store.writes).hasSize(3);
        assertThat(Ledger.of(store.hours)).isEqualTo(ledger);
    }

    @Test
    void withoutQueuesEveryGangCountsInTheDefaultQueue() {
        coordinator.account(usage);
        now = Instant.parse("2026-12-02T12:00:00Z");
        step(new Input.CaughtUp(), new Input.Cluster(cluster("east", 1, now, 0, 0)));
        step(new Input.HubChanged(gang("ml", "m1", T0, 8)));
        tickAt("12:00");
        tickAt("12:05"); // 8 × 300 s = 2,400 GPU-s

        assertThat(usage.current().orElseThrow().since(T0, Grouping.NAMESPACE))
                .containsExactly(new UsageRow("ml", H100, 2_400_000L));
        assertThat(usage.current().orElseThrow().buckets().firstEntry().getValue())
                .containsOnlyKeys(new UsageKey("default", "ml", H100));
    }
}
