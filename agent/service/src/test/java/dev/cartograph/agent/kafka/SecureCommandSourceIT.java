package dev.cartograph.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.kafka.KafkaAcls;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's command consumer ({@link CommandSource#kafka}) given SCRAM or mutual-TLS settings
 * through its ordinary settings map, on a Kafka that denies whatever no ACL allows, with only
 * {@link KafkaAcls#agent}'s ACLs: its group is the one the ACLs name, and it reaches its own
 * cluster's commands and not another's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecureCommandSourceIT {
    static final Topics TOPICS = new Topics("cartograph");
    static final KafkaAcls ACLS = new KafkaAcls(TOPICS);

    @TempDir
    static Path tmp;

    static LocalKafka kafka;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = LocalKafka.startSecure(tmp.resolve("kafka"));
        kafka.createTopics(TOPICS.commands("a"), TOPICS.commands("b"));
        List<org.apache.kafka.common.acl.AclBinding> acls = new ArrayList<>(ACLS.agent("a", "User:agent-a"));
        acls.addAll(ACLS.agent("b", "User:agent-b"));
        kafka.secure().createAcls(acls);
        Map<String, Object> admin = new HashMap<>(kafka.clientSettings());
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(admin, new StringSerializer(), new ByteArraySerializer())) {
            for (String cluster : List.of("a", "b")) {
                producer.send(new ProducerRecord<>(
                                TOPICS.commands(cluster), "p-" + cluster, "{}".getBytes(StandardCharsets.UTF_8)))
                        .get(10, TimeUnit.SECONDS);
            }
        }
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void scramAgentReadsAndCommitsItsOwnCommands() {
        try (CommandSource source = CommandSource.kafka(kafka.secure().scram("agent-a"), TOPICS.commands("a"), "a")) {
            assertThat(source.topicExists()).isTrue();
            source.subscribe();
            ConsumerRecord<String, byte[]> record = pollOne(source);
            assertThat(record.key()).isEqualTo("p-a");
            source.commit(record);
        }
    }

    @Test
    void certificateAgentReadsItsOwnCommands() {
        try (CommandSource source = CommandSource.kafka(kafka.secure().tls("agent-b"), TOPICS.commands("b"), "b")) {
            source.subscribe();
            assertThat(pollOne(source).key()).isEqualTo("p-b");
        }
    }

    @Test
    void agentWithAnotherClustersNameCannotSeeItsCommands() {
        // agent-a's credentials configured as cluster b: its group and topic are b's, which its ACLs do not name
        try (CommandSource source = CommandSource.kafka(kafka.secure().scram("agent-a"), TOPICS.commands("b"), "b")) {
            assertThatThrownBy(source::topicExists).isInstanceOf(TopicAuthorizationException.class);
        }
    }

    private static ConsumerRecord<String, byte[]> pollOne(CommandSource source) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            List<ConsumerRecord<String, byte[]>> records = source.poll(Duration.ofMillis(500));
            if (!records.isEmpty()) {
                return records.get(0);
            }
        }
        throw new AssertionError("no command within 30 s");
    }
}
