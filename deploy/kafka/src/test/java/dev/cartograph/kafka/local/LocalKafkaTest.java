package dev.cartograph.kafka.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalKafkaTest {

    @TempDir
    static Path tmp;

    /** Shared by the tests that do not stop the broker. */
    static LocalKafka shared;

    @BeforeAll
    static void startShared() {
        long t0 = System.nanoTime();
        shared = LocalKafka.start(tmp.resolve("shared"));
        System.out.printf("LocalKafka first start (format + startup): %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    }

    @AfterAll
    static void stopShared() {
        if (shared != null) {
            shared.close();
        }
    }

    @Test
    void producesAndConsumesOnACreatedTopic() throws Exception {
        assertThat(shared.bootstrapServers()).startsWith("127.0.0.1:");
        shared.createTopics("events");
        shared.createTopics("events"); // idempotent
        try (KafkaProducer<String, String> producer = producer(shared)) {
            producer.send(new ProducerRecord<>("events", "k1", "hello")).get(10, TimeUnit.SECONDS);
        }
        try (KafkaConsumer<String, String> consumer = consumer(shared, "reader")) {
            consumer.subscribe(List.of("events"));
            List<ConsumerRecord<String, String>> records = pollAtLeast(consumer, 1);
            assertThat(records)
                    .extracting(ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(tuple("k1", "hello"));
            assertThat(records.get(0).partition()).isZero();
        }
    }

    @Test
    void doesNotCreateTopicsOnFirstUse() throws Exception {
        Map<String, Object> config = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                shared.bootstrapServers(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                1_500));
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("never-created", "k", "v"))
                            .get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class)
                    .hasMessageContaining("not present in metadata");
        }
        try (Admin admin = admin(shared)) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).doesNotContain("never-created");
        }
    }

    /** An agent subscribes to its command topic before the broker has created it. */
    @Test
    void aConsumerSubscribedBeforeItsTopicExistsReadsItOnceCreated() throws Exception {
        try (KafkaConsumer<String, String> consumer = consumer(shared, "early")) {
            consumer.subscribe(List.of("late-topic"));
            assertThat(consumer.poll(Duration.ofSeconds(2))).isEmpty();
            shared.createTopics("late-topic");
            try (KafkaProducer<String, String> producer = producer(shared)) {
                producer.send(new ProducerRecord<>("late-topic", "k", "first")).get(10, TimeUnit.SECONDS);
            }
            long t0 = System.nanoTime();
            assertThat(pollAtLeast(consumer, 1))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("first");
            System.out.printf(
                    "consumer subscribed before creation: first record %d ms after it was written%n",
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    /** A new topic's configuration, asked until the broker's metadata knows the topic (it may lag the create under load). */
    private static Config describedOnceKnown(Admin admin, ConfigResource resource) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return admin.describeConfigs(List.of(resource))
                        .all()
                        .get(10, TimeUnit.SECONDS)
                        .get(resource);
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    @Test
    void createsACompactedTopicWithTheAdminClient() throws Exception {
        try (Admin admin = admin(shared)) {
            NewTopic topic = new NewTopic("state", 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(topic)).all().get(10, TimeUnit.SECONDS);

            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "state");
            Config config = describedOnceKnown(admin, resource);
            assertThat(config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("compact");
            assertThat(admin.describeTopics(List.of("state"))
                            .allTopicNames()
                            .get(10, TimeUnit.SECONDS)
                            .get("state")
                            .partitions())
                    .hasSize(1);
        }
        try (KafkaProducer<String, String> producer = producer(shared)) {
            producer.send(new ProducerRecord<>("state", "node-a", "v1")).get(10, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>("state", "node-a", "v2")).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void restartOnTheSameDataKeepsTopicsRecordsAndCommittedOffsets() throws Exception {
        Path data = tmp.resolve("restart");
        TopicPartition tp = new TopicPartition("ledger", 0);
        String clusterId;
        try (LocalKafka kafka = LocalKafka.start(data)) {
            int port = kafka.port();
            clusterId = kafka.clusterId();
            assertThat(clusterId).isNotBlank();
            try (Admin admin = admin(kafka)) {
                admin.createTopics(List.of(new NewTopic("ledger", 1, (short) 1)
                                .configs(
                                        Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))))
                        .all()
                        .get(10, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = producer(kafka)) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("ledger", "k" + i, "v" + i))
                            .get(10, TimeUnit.SECONDS);
                }
            }
            try (KafkaConsumer<String, String> consumer = consumer(kafka, "ledger-group")) {
                consumer.subscribe(List.of("ledger"));
                assertThat(pollAtLeast(consumer, 3)).hasSize(3);
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(2)));
            }

            long t0 = System.nanoTime();
            kafka.stop();
            long t1 = System.nanoTime();
            assertThat(kafka.isRunning()).isFalse();
            // what LocalKafkaCluster.kill removes to make a restart recover as after a crash
            assertThat(data.resolve(KafkaNode.CLEAN_SHUTDOWN_MARKER)).exists();
            kafka.restart();
            long t2 = System.nanoTime();
            System.out.printf("LocalKafka stop: %d ms, restart: %d ms%n", (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
            assertThat(kafka.isRunning()).isTrue();
            assertThat(kafka.port()).isEqualTo(port);
            assertThat(kafka.clusterId()).isEqualTo(clusterId);
            assertSurvived(kafka, tp);
        }

        // a new instance (as after a process restart) on the same data directory, on another port
        long t0 = System.nanoTime();
        try (LocalKafka again = LocalKafka.start(data)) {
            System.out.printf("LocalKafka start on existing data: %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            assertThat(again.clusterId()).isEqualTo(clusterId);
            assertSurvived(again, tp);
        }
        assertThat(Files.exists(data.resolve("meta.properties"))).isTrue();
    }

    private static void assertSurvived(LocalKafka kafka, TopicPartition tp) throws Exception {
        try (Admin admin = admin(kafka)) {
            Set<String> topics = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            assertThat(topics).contains("ledger");
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "ledger");
            assertThat(admin.describeConfigs(List.of(resource))
                            .all()
                            .get(10, TimeUnit.SECONDS)
                            .get(resource)
                            .get(TopicConfig.CLEANUP_POLICY_CONFIG)
                            .value())
                    .isEqualTo("compact");
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("ledger-group")
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS);
            assertThat(committed.get(tp).offset()).isEqualTo(2);
        }
        try (KafkaConsumer<String, String> consumer = consumer(kafka, "ledger-group")) {
            consumer.subscribe(List.of("ledger"));
            // the group resumes at its committed offset: only the third record is left
            assertThat(pollAtLeast(consumer, 1))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("v2");
        }
        try (KafkaConsumer<String, String> consumer = consumer(kafka, null)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            assertThat(pollAtLeast(consumer, 3))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("v0", "v1", "v2");
        }
    }

    private static List<ConsumerRecord<String, String>> pollAtLeast(KafkaConsumer<String, String> consumer, int n) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (records.size() < n && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    private static Admin admin(LocalKafka kafka) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    private static KafkaProducer<String, String> producer(LocalKafka kafka) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(LocalKafka kafka, String group) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false));
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }
}
