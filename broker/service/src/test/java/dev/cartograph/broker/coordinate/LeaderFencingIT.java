package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.kafka.Ingest;
import dev.cartograph.broker.kafka.KafkaOutbox;
import dev.cartograph.broker.kafka.Topology;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.testing.TestKafka;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two brokers on a real Kafka: the leader is paused (its whole coordinator, as in a long GC pause
 * or a frozen VM, without ever hearing that it lost the lease) while the other takes the lead; when
 * it resumes it acts on what waited in its inbox — and Kafka refuses every write it makes, so nothing
 * it does counts: no placement record, no command.
 */
@Timeout(120)
class LeaderFencingIT {
    static TestKafka kafka;

    @BeforeAll
    static void kafka() throws Exception {
        kafka = TestKafka.start(Files.createTempDirectory("fencing-it-kafka"));
    }

    @AfterAll
    static void stop() throws Exception {
        kafka.close();
    }

    /** One broker instance: coordinator, its transactional outbox and its ingest, on their threads. */
    record Instance(Coordinator coordinator, KafkaOutbox outbox, Ingest ingest, Topology topology, List<Thread> threads)
            implements AutoCloseable {
        static Instance start(String id, Topics topics) {
            Map<String, String> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
            BrokerSettings settings = new BrokerSettings(
                            id,
                            topics.prefix(),
                            client,
                            Duration.ofSeconds(30),
                            Duration.ofSeconds(60),
                            "cartograph.dev/federate=true",
                            Planner.Policy.BIN_PACK,
                            false,
                            "leases",
                            "lease",
                            Duration.ofSeconds(1))
                    .withTopicSettings(TopicSettings.SINGLE_BROKER);
            Topology topology = new Topology(client, topics, TopicSettings.SINGLE_BROKER);
            KafkaOutbox outbox = new KafkaOutbox(client, topics, topology::ensureCommandTopicOrLog);
            CoordinatorHarness fakes = new CoordinatorHarness();
            Coordinator coordinator = new Coordinator(
                    settings, Interpreter.of(Catalog.load().definitions()), outbox, fakes.hub, Clock.systemUTC());
            Ingest ingest = new Ingest(client, topics, topology, coordinator);
            coordinator.catchUpWith(ingest::mark);
            List<Thread> threads =
                    List.of(new Thread(coordinator, id + "-coordinator"), new Thread(ingest, id + "-ingest"));
            threads.forEach(Thread::start);
            return new Instance(coordinator, outbox, ingest, topology, threads);
        }

        @Override
        public void close() throws Exception {
            ingest.close();
            coordinator.close();
            for (Thread t : threads) {
                t.join(10_000);
            }
            outbox.close();
            topology.close();
        }
    }

    @Test
    void aPausedLeaderThatResumesAfterAnotherTookTheLeadWritesNothingThatCounts() throws Exception {
        Topics topics = new Topics("fence");
        try (Instance a = Instance.start("a", topics);
                Instance b = Instance.start("b", topics)) {
            Instant now = Instant.now();
            for (Instance i : List.of(a, b)) {
                i.coordinator().post(new Input.Cluster(CoordinatorHarness.cluster("east", 1, now, 0, 0, 0, 0)));
            }
            a.coordinator().leading(true, 1);
            a.coordinator().post(new Input.HubChanged(CoordinatorHarness.job("one", "uid-one", now, 8, "", "")));
            Eventually.asserted(
                    Duration.ofSeconds(30),
                    () -> assertThat(placements(topics))
                            .extracting(PlacementRecord::uid)
                            .contains("uid-one"));

            CountDownLatch resume = new CountDownLatch(1);
            a.coordinator()
                    .post(new Input.Call(
                            () -> { // a's whole coordinator stops here, lease and all
                                try {
                                    resume.await(60, TimeUnit.SECONDS);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }));
            b.coordinator().leading(true, 2); // b takes the lease a did not renew
            b.coordinator().post(new Input.HubChanged(CoordinatorHarness.job("two", "uid-two", now, 8, "", "")));
            Eventually.asserted(
                    Duration.ofSeconds(30),
                    () -> assertThat(placements(topics))
                            .extracting(PlacementRecord::uid)
                            .contains("uid-two"));

            a.coordinator().post(new Input.HubChanged(CoordinatorHarness.job("three", "uid-three", now, 8, "", "")));
            resume.countDown(); // a resumes, still believing it leads, and places what waited in its inbox
            Eventually.asserted(
                    Duration.ofSeconds(30),
                    () -> assertThat(a.coordinator().view().leading()).isFalse());

            List<PlacementRecord> written = placements(topics);
            assertThat(written).extracting(PlacementRecord::uid).containsExactly("uid-one", "uid-two");
            assertThat(written).extracting(PlacementRecord::term).containsExactly(1L, 2L);
            assertThat(commands(topics, "east"))
                    .extracting(Command::placementId)
                    .containsExactly("uid-one", "uid-two");
            assertThat(b.coordinator().view().active()).isTrue();
        }
    }

    private static List<PlacementRecord> placements(Topics topics) {
        List<PlacementRecord> out = new ArrayList<>();
        read(topics.placements())
                .forEach(v -> out.add(((Decoded.Ok<PlacementRecord>) Wire.decodePlacement(v)).value()));
        return out;
    }

    private static List<Command> commands(Topics topics, String cluster) {
        List<Command> out = new ArrayList<>();
        read(topics.commands(cluster)).forEach(v -> out.add(((Decoded.Ok<Command>) Wire.decodeCommand(v)).value()));
        return out;
    }

    /** Every committed value of a one-partition topic, as an agent or a broker reads it. */
    private static List<byte[]> read(String topic) {
        TopicPartition tp = new TopicPartition(topic, 0);
        List<byte[]> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers(), "isolation.level", "read_committed"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofSeconds(10)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null) {
                        out.add(r.value());
                    }
                }
            }
        }
        return out;
    }
}
