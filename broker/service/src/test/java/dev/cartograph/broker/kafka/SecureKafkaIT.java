package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.kafka.KafkaAcls;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's own Kafka clients (Topology's admin client, the outbox's transactional producer)
 * given SASL_SSL/SCRAM settings through their ordinary settings map, on a Kafka that denies
 * whatever no ACL allows, with only {@link KafkaAcls#broker}'s ACLs for the broker's principal.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecureKafkaIT {
    static final Topics TOPICS = new Topics("cartograph");
    static final Instant AT = Instant.parse("2026-12-03T12:00:00Z");

    @TempDir
    static Path tmp;

    static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.startSecure(tmp.resolve("kafka"));
        kafka.createTopics(TOPICS.placements(), TOPICS.commands("existing"));
        kafka.secure().createAcls(new KafkaAcls(TOPICS).broker("User:cartograph-broker"));
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void outboxIdIsTheTransactionalIdTheAclsAllow() {
        assertThat(KafkaOutbox.transactionalId(TOPICS)).isEqualTo(new KafkaAcls(TOPICS).brokerTransactionalId());
    }

    @Test
    void brokerCreatesAndChecksCommandTopicsAndWritesPlacementsAndCommandsOverScram() throws Exception {
        Map<String, String> settings = kafka.secure().scram("cartograph-broker");
        assertThat(settings).containsEntry("security.protocol", "SASL_SSL");
        try (Topology topology = new Topology(settings, TOPICS, new TopicSettings(1, 1));
                KafkaOutbox outbox = new KafkaOutbox(settings, TOPICS, topology::ensureCommandTopicOrLog)) {
            // existing: described, its configs checked (1 replica and min.insync 1 as configured: no shortfall)
            assertThat(topology.ensureCommandTopic("existing")).isEmpty();
            outbox.activate(1);
            outbox.placement(placement());
            // missing: created through the outbox's callback, then written in a transaction
            assertThat(outbox.command(
                            "gpu-east",
                            new Command.Delete("uid-1", 1, AT, new WorkloadKey("gpu-east", "ml", "batch", "Job", "j"))))
                    .isTrue();
        }
        try (Admin admin = Admin.create(new HashMap<>(kafka.clientSettings()))) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).contains(TOPICS.commands("gpu-east"));
        }
        assertThat(readKeys(TOPICS.placements())).containsExactly("uid-1");
        assertThat(readKeys(TOPICS.commands("gpu-east"))).containsExactly("uid-1");
    }

    private static PlacementRecord placement() {
        return new PlacementRecord(
                "uid-1",
                new PlacementRecord.Target("ml", "batch/v1", "Job", "job-1"),
                Optional.of("gpu-east"),
                1,
                PlacementRecord.State.PLACED,
                "",
                Map.of(),
                0,
                AT,
                AT);
    }

    /** The keys of the committed records of a one-partition topic, read as the administrator. */
    private static List<String> readKeys(String topic) {
        Map<String, Object> config = new HashMap<>(kafka.clientSettings());
        config.put("isolation.level", "read_committed");
        TopicPartition tp = new TopicPartition(topic, 0);
        List<String> keys = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofSeconds(10)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (consumer.position(tp, Duration.ofSeconds(10)) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    keys.add(r.key());
                }
            }
        }
        return keys;
    }
}
