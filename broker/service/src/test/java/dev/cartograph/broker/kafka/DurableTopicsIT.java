package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.agent.kafka.OwnTopics;
import dev.cartograph.kafka.local.LocalKafkaCluster;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.kafka.Shortfall;
import dev.cartograph.protocol.kafka.Shortfall.Setting;
import dev.cartograph.protocol.kafka.TopicMaker;
import dev.cartograph.protocol.kafka.TopicMaker.Cleanup;
import dev.cartograph.protocol.kafka.TopologyException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cartograph's topics on a real three-broker KRaft cluster (in-process): Topology (the broker's) and
 * OwnTopics (an agent's) create and check them by TopicMaker's one rule, and what the broker's outbox writes to them survives a broker crash. Each test has its own
 * topic prefix.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DurableTopicsIT {
    static final TopicSettings DURABLE = new TopicSettings(3, 2);

    @TempDir
    static Path tmp;

    static LocalKafkaCluster kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafkaCluster.start(tmp.resolve("kafka"), 3);
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void createsThePlacementsTopicAndEachAgentsOwnTopicsReplicatedAndCompactedAsConfigured() throws Exception {
        Topics topics = new Topics("shared");
        try (Topology topology = topology(topics, DURABLE)) {
            assertThat(topology.ensurePlacements()).isEmpty();
            assertThat(topology.ensurePlacements()).isEmpty(); // again: nothing to do, nothing short
        }
        try (OwnTopics agent = OwnTopics.kafka(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                topics,
                "gpu-east",
                DURABLE,
                Clock.systemUTC())) {
            assertThat(agent.ready()).isTrue(); // the agent makes its own by the same rule
        }
        try (Admin admin = admin()) {
            for (String t : List.of(
                    topics.placements(),
                    topics.of("gpu-east", AgentTopic.CLUSTER),
                    topics.of("gpu-east", AgentTopic.WORKLOADS))) {
                assertTopic(admin, t, 3, "2", "compact");
            }
            assertTopic(admin, topics.of("gpu-east", AgentTopic.EVENTS), 3, "2", "delete");
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .filteredOn(t -> t.startsWith("shared."))
                    .containsExactlyInAnyOrder(
                            "shared.placements",
                            "shared.from.gpu-east.cluster",
                            "shared.from.gpu-east.workloads",
                            "shared.from.gpu-east.events");
        }
    }

    @Test
    void createsACommandTopicOnceAndThenAnswersWithoutAskingKafka() throws Exception {
        Topics topics = new Topics("cmd");
        try (Topology topology = topology(topics, DURABLE)) {
            assertThat(topology.ensureCommandTopic("gpu-east")).isEmpty();
            try (Admin admin = admin()) {
                assertTopic(admin, "cmd.commands.gpu-east", 3, "2", "delete");
                admin.deleteTopics(List.of("cmd.commands.gpu-east")).all().get(10, TimeUnit.SECONDS);
            }
            long t0 = System.nanoTime();
            assertThat(topology.ensureCommandTopic("gpu-east")).isEmpty();
            long micros = (System.nanoTime() - t0) / 1_000;
            System.out.printf("ensureCommandTopic for a known topic: %d µs%n", micros);
            try (Admin admin = admin()) {
                // remembered, not asked for: the deleted topic stays deleted
                assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                        .doesNotContain("cmd.commands.gpu-east");
            }
        }
        try (Topology restarted = topology(topics, DURABLE)) {
            assertThat(restarted.ensureCommandTopic("gpu-east")).isEmpty(); // a new broker instance creates it again
            assertThat(restarted.ensureCommandTopic("gpu-east")).isEmpty();
            assertThatThrownBy(() -> restarted.ensureCommandTopic("a/b")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusesAReplicationFactorLargerThanTheBrokersUpAndCreatesNothing() throws Exception {
        Topics topics = new Topics("wide");
        try (Topology topology = topology(topics, new TopicSettings(4, 2))) {
            assertThatThrownBy(topology::ensurePlacements).isInstanceOfSatisfying(TopologyException.class, e -> {
                assertThat(e.reason()).isEqualTo(TopologyException.Reason.TOO_FEW_BROKERS);
                assertThat(e.retryable()).isFalse();
                assertThat(e)
                        .hasMessageContaining("replication factor 4 needs 4 Kafka brokers, but 3 are up")
                        .hasMessageContaining("cartograph.broker.topic-replication-factor");
            });
            assertThatThrownBy(() -> topology.ensureCommandTopic("gpu-east")).isInstanceOf(TopologyException.class);
        }
        try (Admin admin = admin()) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).noneMatch(t -> t.startsWith("wide."));
        }
    }

    @Test
    void reportsExistingTopicsLessDurableThanConfiguredAndLeavesThemAsTheyAre() throws Exception {
        Topics topics = new Topics("old");
        try (Admin admin = admin()) {
            admin.createTopics(List.of(
                            new NewTopic(topics.placements(), 1, (short)
                                    1), // as auto-creation would: one copy, deleted by age
                            new NewTopic(topics.of("gpu-west", AgentTopic.CLUSTER), 1, (short) 3)
                                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, "compact")),
                            new NewTopic(topics.commands("gpu-west"), 1, (short) 2)
                                    .configs(Map.of(
                                            TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                                            "2",
                                            TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG,
                                            "true"))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        try (Topology topology = topology(topics, DURABLE)) {
            // hand count: placements 1 copy (not 3), min.insync 1 (broker default, not 2), delete (not compact)
            assertThat(topology.ensurePlacements())
                    .containsExactlyInAnyOrder(
                            new Shortfall("old.placements", Setting.REPLICATION_FACTOR, "1", "3"),
                            new Shortfall("old.placements", Setting.MIN_INSYNC_REPLICAS, "1", "2"),
                            new Shortfall("old.placements", Setting.CLEANUP_POLICY, "delete", "compact"));
            assertThat(topology.ensureCommandTopic("gpu-west"))
                    .containsExactlyInAnyOrder(
                            new Shortfall("old.commands.gpu-west", Setting.REPLICATION_FACTOR, "2", "3"),
                            new Shortfall("old.commands.gpu-west", Setting.UNCLEAN_LEADER_ELECTION, "true", "false"));
        }
        try (TopicMaker agent =
                new TopicMaker(Map.of("bootstrap.servers", kafka.bootstrapServers()), DURABLE, "cartograph.agent")) {
            // hand count: gpu-west's cluster topic has min.insync 1; its workloads and events are new and as configured
            assertThat(agent.ensure(Map.of(
                            topics.of("gpu-west", AgentTopic.CLUSTER), Cleanup.COMPACT,
                            topics.of("gpu-west", AgentTopic.WORKLOADS), Cleanup.COMPACT,
                            topics.of("gpu-west", AgentTopic.EVENTS), Cleanup.DELETE)))
                    .containsExactly(new Shortfall("old.from.gpu-west.cluster", Setting.MIN_INSYNC_REPLICAS, "1", "2"));
        }
        try (Admin admin = admin()) {
            assertTopic(admin, topics.placements(), 1, "1", "delete");
            assertTopic(admin, topics.of("gpu-west", AgentTopic.WORKLOADS), 3, "2", "compact");
        }
    }

    @Test
    void aSingleBrokerSettingFitsAnyCluster() throws Exception {
        try (Topology topology = topology(new Topics("single"), TopicSettings.SINGLE_BROKER)) {
            assertThat(topology.ensurePlacements()).isEmpty();
            assertThat(topology.ensureCommandTopic("gpu-east")).isEmpty();
        }
        try (Admin admin = admin()) {
            assertTopic(admin, "single.placements", 1, "1", "compact");
            assertTopic(admin, "single.commands.gpu-east", 1, "1", "delete");
        }
    }

    @Test
    void whatTheOutboxWritesSurvivesABrokerCrashOnceEachAndInOrder() throws Exception {
        Topics topics = new Topics("crash");
        String cluster = "gpu-east";
        try (Topology topology = topology(topics, DURABLE)) {
            topology.ensurePlacements();
            topology.ensureCommandTopic(cluster);
        }
        int victim;
        try (Admin admin = admin()) {
            victim = admin.describeTopics(List.of(topics.placements()))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topics.placements())
                    .partitions()
                    .get(0)
                    .leader()
                    .id();
        }
        AtomicInteger written = new AtomicInteger();
        AtomicBoolean writing = new AtomicBoolean(true);
        try (KafkaOutbox outbox =
                new KafkaOutbox(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics, c -> {})) {
            outbox.activate(1);
            // as the coordinator does: the placement durable first, then its command; a write that fails is made again
            CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> {
                for (int n = 0; writing.get(); n++) {
                    for (int attempt = 0; ; attempt++) {
                        try {
                            outbox.placement(placement(n));
                            break;
                        } catch (Exception e) {
                            if (attempt == 20) {
                                throw new IllegalStateException("placement " + n + " not written", e);
                            }
                        }
                    }
                    for (int attempt = 0;
                            !outbox.command(
                                    cluster,
                                    new Command.Delete(
                                            uid(n), n, AT, new WorkloadKey(cluster, "ml", "batch", "Job", "job-" + n)));
                            attempt++) {
                        if (attempt == 20) {
                            throw new IllegalStateException("command " + n + " not sent");
                        }
                    }
                    written.incrementAndGet();
                }
            });
            awaitCount(written, 200);
            long t0 = System.nanoTime();
            kafka.kill(victim); // leads the placements topic
            int atKill = written.get();
            awaitCount(written, atKill + 200);
            System.out.printf(
                    "outbox: node %d killed at %d placements, 200 more after %d ms%n",
                    victim, atKill, (System.nanoTime() - t0) / 1_000_000);
            kafka.restart(victim);
            awaitCount(written, written.get() + 200);
            writing.set(false);
            stream.get(60, TimeUnit.SECONDS);
        } // close flushes the commands still in flight
        int total = written.get();
        List<Long> expected = LongStream.range(0, total).boxed().toList();
        assertThat(readEpochs(
                        topics.placements(),
                        v -> ((Decoded.Ok<PlacementRecord>) Wire.decodePlacement(v))
                                .value()
                                .epoch()))
                .as("placements")
                .isEqualTo(expected);
        assertThat(readEpochs(
                        topics.commands(cluster),
                        v -> ((Decoded.Ok<Command>) Wire.decodeCommand(v))
                                .value()
                                .epoch()))
                .as("commands")
                .isEqualTo(expected);
        System.out.printf("outbox: %d placements and %d commands, each once and in order%n", total, total);
    }

    @Test
    void placementsWrittenTogetherAreCommittedInOneTransaction() throws Exception {
        // a preemption's victims and its preemptor: a read_committed reader sees them all, in order
        Topics topics = new Topics("batch");
        try (Topology topology = topology(topics, DURABLE)) {
            topology.ensurePlacements();
        }
        try (KafkaOutbox outbox =
                new KafkaOutbox(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics, c -> {})) {
            outbox.activate(1);
            outbox.placement(placement(1));
            outbox.placements(List.of(placement(2), placement(3), placement(4)));
        }
        assertThat(readEpochs(
                        topics.placements(),
                        v -> ((Decoded.Ok<PlacementRecord>) Wire.decodePlacement(v))
                                .value()
                                .epoch()))
                .containsExactly(1L, 2L, 3L, 4L);
    }

    /**
     * Issue 33, finding 4: an apply larger than a record may be. Kafka's producer refuses such a record alone and the
     * transaction committed the rest: the placement was durable without its apply, which was resent for ever. Now the
     * outbox says beforehand that it is too large (with the bytes and the limit), and a batch holding one anyway fails
     * whole: nothing of it is committed, and the outbox goes on with the next batch.
     */
    @Test
    void aCommandLargerThanARecordMayBeIsNamedBeforehandAndABatchHoldingOneCommitsNothing() throws Exception {
        Topics topics = new Topics("large");
        String cluster = "gpu-east";
        try (Topology topology = topology(topics, DURABLE)) {
            topology.ensurePlacements();
            topology.ensureCommandTopic(cluster);
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var manifest = json.createObjectNode().put("apiVersion", "batch/v1").put("kind", "Job");
        // two ConfigMaps of 720 KiB each: each within the API server's limit, together over Kafka's 1 MiB record
        List<com.fasterxml.jackson.databind.JsonNode> configMaps = new ArrayList<>();
        for (String name : List.of("weights-a", "weights-b")) {
            var cm = json.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
            cm.putObject("metadata").put("name", name);
            cm.putObject("data").put("blob", "x".repeat(720 * 1024));
            configMaps.add(cm);
        }
        Command small = new Command.Apply(uid(1), 1, AT, manifest);
        Command large = new Command.Apply(uid(1), 1, AT, manifest, configMaps);
        try (KafkaOutbox outbox =
                new KafkaOutbox(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics, c -> {})) {
            outbox.activate(1);
            assertThat(outbox.tooLarge(small)).isEmpty();
            // 1,474,560 bytes of data alone (2 × 720 × 1024), over the 1,048,576 of max.request.size
            assertThat(outbox.tooLarge(large))
                    .hasValueSatisfying(reason -> assertThat(reason)
                            .matches("as a command it is 1,47\\d,\\d{3} bytes .*")
                            .contains("at most 1,048,576 bytes"));
            assertThatThrownBy(() -> outbox.write(List.of(
                            new dev.cartograph.broker.coordinate.Outbox.Write.Placement(placement(1)),
                            new dev.cartograph.broker.coordinate.Outbox.Write.ToCluster(cluster, large))))
                    .isInstanceOf(org.apache.kafka.common.errors.RecordTooLargeException.class);
            outbox.write(List.of(
                    new dev.cartograph.broker.coordinate.Outbox.Write.Placement(placement(2)),
                    new dev.cartograph.broker.coordinate.Outbox.Write.ToCluster(cluster, small)));
        }
        assertThat(readEpochs(
                        topics.placements(),
                        v -> ((Decoded.Ok<PlacementRecord>) Wire.decodePlacement(v))
                                .value()
                                .epoch()))
                .as("the batch with the large apply left nothing behind")
                .containsExactly(2L);
    }

    private static final Instant AT = Instant.parse("2026-12-02T12:00:00Z");

    private static String uid(int n) {
        return "uid-" + n;
    }

    /** The n-th placement, numbered by its epoch. */
    private static PlacementRecord placement(int n) {
        return new PlacementRecord(
                uid(n),
                new PlacementRecord.Target("ml", "batch/v1", "Job", "job-" + n),
                Optional.of("gpu-east"),
                n,
                PlacementRecord.State.PLACED,
                "",
                Map.of(),
                0,
                AT,
                AT);
    }

    /** Every record of a one-partition topic, decoded to the number it carries. */
    private static List<Long> readEpochs(String topic, java.util.function.ToLongFunction<byte[]> number) {
        TopicPartition tp = new TopicPartition(topic, 0);
        List<Long> read = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers(), "isolation.level", "read_committed"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (consumer.position(tp, Duration.ofSeconds(30)) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(number.applyAsLong(r.value()));
                }
            }
        }
        return read;
    }

    private static void awaitCount(AtomicInteger count, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        while (count.get() < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + count.get() + " of " + atLeast + " written in 45 s");
            }
            Thread.sleep(20);
        }
    }

    private static void assertTopic(Admin admin, String topic, int replicas, String minIsr, String cleanup)
            throws Exception {
        TopicDescription d = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(topic);
        assertThat(d.partitions()).as(topic).hasSize(1);
        assertThat(d.partitions().get(0).replicas()).as(topic).hasSize(replicas);
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config c = admin.describeConfigs(List.of(r))
                .all()
                .get(10, TimeUnit.SECONDS)
                .get(r);
        assertThat(c.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value())
                .as(topic)
                .isEqualTo(minIsr);
        assertThat(c.get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).as(topic).isEqualTo(cleanup);
    }

    private static Topology topology(Topics topics, TopicSettings settings) {
        return new Topology(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics, settings);
    }

    private static Admin admin() {
        return Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()));
    }
}
