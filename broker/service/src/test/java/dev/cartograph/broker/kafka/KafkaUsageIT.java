package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.broker.coordinate.Outbox;
import dev.cartograph.broker.usage.UsageAccounting;
import dev.cartograph.broker.usage.UsageObserver;
import dev.cartograph.kafka.testing.TestKafka;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.usage.Grouping;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import dev.cartograph.usage.UsageRow;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Usage in the compacted {@code P.usage} topic of a real Kafka: what one leader writes, a restarted broker (new
 * outbox, new store, new accounting) reads back to the same totals; a deposed leader's write is refused.
 */
@Timeout(120)
class KafkaUsageIT {
    static final UsageKey ML = new UsageKey("team-a", "ml", "NVIDIA-H100-80GB-HBM3");
    static final UsageKey CV = new UsageKey("default", "cv", "NVIDIA-A100-SXM4-80GB");
    static TestKafka kafka;

    @BeforeAll
    static void kafka() throws Exception {
        kafka = TestKafka.start(Files.createTempDirectory("usage-it-kafka"));
    }

    @AfterAll
    static void stop() throws Exception {
        kafka.close();
    }

    /** One broker's Kafka side: its topology, its transactional outbox (active in {@code term}), its usage store. */
    record Instance(Topology topology, KafkaOutbox outbox, KafkaUsage store) implements AutoCloseable {
        static Instance start(Topics topics, long term) throws Exception {
            Map<String, String> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
            Topology topology = new Topology(client, topics, TopicSettings.SINGLE_BROKER);
            KafkaOutbox outbox = new KafkaOutbox(client, topics, topology::ensureCommandTopicOrLog);
            outbox.activate(term);
            return new Instance(topology, outbox, new KafkaUsage(client, topics, topology, outbox));
        }

        @Override
        public void close() {
            outbox.close();
            topology.close();
        }
    }

    static Instant at(String hhmmss) {
        return Instant.parse("2026-12-06T" + hhmmss + "Z");
    }

    @Test
    void aRestartedBrokerReadsBackTheTotalsTheLastLeaderWrote() throws Exception {
        Topics topics = new Topics("usage-restart");
        // leader 1: 8 H100 (ml) and 2 A100 (cv) held 10:40–12:10, ticking every 10 s, then it stops leading.
        // by hand: ml 8 × 5,400 s = 43,200 GPU-s = 12 GPU-h (10:00 9,600; 11:00 28,800; 12:00 4,800); cv 2 × 5,400 =
        // 10,800
        Ledger before;
        try (Instance first = Instance.start(topics, 1)) {
            UsageAccounting a =
                    new UsageAccounting(first.store(), UsageObserver.NONE, Duration.ofMinutes(1), Duration.ofDays(90));
            for (Instant t = at("10:40:00"); !t.isAfter(at("12:10:00")); t = t.plusSeconds(10)) {
                a.tick(t, true, () -> Map.of(ML, 8L, CV, 2L));
            }
            before = a.current().orElseThrow();
            a.tick(at("12:10:01"), false, Map::of);
        }
        assertThat(before.bucket(at("10:00:00"))).containsEntry(ML, 9_600_000L);
        assertThat(before.bucket(at("11:00:00"))).containsEntry(ML, 28_800_000L);
        assertThat(before.bucket(at("12:00:00"))).containsEntry(ML, 4_800_000L);

        try (Instance second = Instance.start(topics, 2)) {
            Ledger read = second.store().load();
            assertThat(read).isEqualTo(before);
            assertThat(read.since(at("00:00:00"), Grouping.QUEUE))
                    .containsExactly(
                            new UsageRow("default", "NVIDIA-A100-SXM4-80GB", 10_800_000L),
                            new UsageRow("team-a", "NVIDIA-H100-80GB-HBM3", 43_200_000L));
            assertThat(read.since(at("00:00:00"), Grouping.QUEUE).get(1).gpuHours())
                    .isEqualTo(12.0);

            // leader 2 goes on from there: 8 H100 12:10–12:20 adds 8 × 600 s = 4,800 to the 12:00 hour
            UsageAccounting b =
                    new UsageAccounting(second.store(), UsageObserver.NONE, Duration.ofMinutes(1), Duration.ofDays(90));
            for (Instant t = at("12:10:00"); !t.isAfter(at("12:20:00")); t = t.plusSeconds(10)) {
                b.tick(t, true, () -> Map.of(ML, 8L));
            }
            assertThat(second.store().load().bucket(at("12:00:00"))).containsEntry(ML, 9_600_000L);
        }
    }

    @Test
    void aDeposedLeadersUsageIsRefusedAndSoIsWhatItWritesNext() throws Exception {
        Topics topics = new Topics("usage-fenced");
        try (Instance old = Instance.start(topics, 1)) {
            old.store().write(Map.of(at("10:00:00"), Map.of(ML, 1_000L)));
            try (Instance fresh = Instance.start(topics, 2)) {
                assertThatThrownBy(() -> old.store().write(Map.of(at("10:00:00"), Map.of(ML, 99_000L))))
                        .isInstanceOf(Outbox.Fenced.class);
                // and so is every later write of the deposed leader, usage or placements
                assertThatThrownBy(() -> old.outbox().forget("uid-1")).isInstanceOf(Outbox.Fenced.class);
                fresh.store().write(Map.of(at("11:00:00"), Map.of(ML, 2_000L), at("10:00:00"), Map.of()));
                assertThat(fresh.store().load().buckets())
                        .isEqualTo(Map.of(at("11:00:00"), Map.of(ML, 2_000L))); // 10:00 removed by its tombstone
            }
        }
    }
}
