package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.testing.TestKafka;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each cluster has its own identity on Kafka: the broker takes a record's cluster from the topic it is
 * on, so whoever can write cluster a's topics (a's agent, or a's stolen credential) speaks for a only;
 * and a cluster whose agent starts after the broker is found by its topics and read from the beginning.
 * Real Kafka, real agents, the hub and members as fabric8 mock API servers.
 */
@Timeout(180)
class ClusterIdentityIT {
    static TestKafka kafka;
    Federation fed;

    @BeforeAll
    static void kafka() throws Exception {
        kafka = TestKafka.start(Files.createTempDirectory("identity-it-kafka"));
    }

    @AfterAll
    static void stopKafka() throws Exception {
        kafka.close();
    }

    @AfterEach
    void close() {
        if (fed != null) {
            fed.close();
        }
    }

    @Test
    void recordsOnOneClustersTopicsClaimingAnotherNeverReachTheFleetWhileItsOwnDo() throws Exception {
        fed = new Federation(kafka::bootstrapServers).member("a", "NVIDIA-A100-SXM4-80GB", 1);
        Topics topics = new Topics(fed.prefix);
        BrokerRuntime broker = fed.startBroker("broker-a", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().containsKey("a"));
        long poisonBefore = broker.view().poisonRecords();
        long sequenceBefore = broker.view().fleet().clusters().get("a").sequence();

        // written with a's rights (a's topics), claiming to be b: a summary, a tombstone of b's workload, a result
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topics.of("a", AgentTopic.CLUSTER), "b", bytes("""
                            {"schema":1,"type":"cluster","cluster":"b","labels":{},"agentVersion":"0.1.0",
                             "incarnation":"forged","sequence":1,"heartbeat":"2026-12-03T08:00:00Z",
                             "nodes":0,"placements":0}
                            """)))
                    .get();
            producer.send(new ProducerRecord<>(topics.of("a", AgentTopic.WORKLOADS), "b/ml/batch/Job/x", null))
                    .get();
            producer.send(new ProducerRecord<>(topics.of("a", AgentTopic.EVENTS), "p-1", bytes("""
                            {"schema":1,"type":"result","cluster":"b","placementId":"p-1","epoch":1,
                             "command":"apply","outcome":"APPLIED","reason":"","at":"2026-12-03T08:00:00Z"}
                            """)))
                    .get();
        }

        // hand count: three records refused, none delivered
        Eventually.until(
                Duration.ofSeconds(30),
                () -> broker.view().poisonRecords() == poisonBefore + 3,
                () -> "poison records " + broker.view().poisonRecords());
        // a's own heartbeats keep arriving (1 s apart) and b never appears
        Eventually.until(
                Duration.ofSeconds(30),
                () -> broker.view().fleet().clusters().get("a").sequence() > sequenceBefore + 2);
        assertThat(broker.view().fleet().clusters().keySet()).containsExactly("a");
        assertThat(broker.view().fleet().clusters().get("a").incarnation()).isNotEqualTo("forged");
        assertThat(broker.view().poisonRecords()).isEqualTo(poisonBefore + 3);
    }

    @Test
    void aClusterWhoseAgentStartsAfterTheBrokerIsFoundByItsTopicsAndGetsItsCommandTopic() throws Exception {
        fed = new Federation(kafka::bootstrapServers).member("a", "NVIDIA-A100-SXM4-80GB", 1);
        Topics topics = new Topics(fed.prefix);
        BrokerRuntime broker = fed.startBroker("broker-a", false);
        Eventually.until(
                Duration.ofSeconds(60),
                () -> broker.view().active() && broker.view().fleet().clusters().size() == 1);

        fed.member("late", "NVIDIA-H100-80GB-HBM3", 2); // its agent creates its topics now
        // the broker looks for new clusters' topics every 2 s
        Eventually.until(
                Duration.ofSeconds(30), () -> broker.view().fleet().clusters().containsKey("late"));
        ClusterSummary late = broker.view().fleet().clusters().get("late");
        assertThat(late.nodes()).hasSize(2);
        Eventually.until(Duration.ofSeconds(30), () -> topicNames().contains(topics.commands("late")));
    }

    static java.util.Set<String> topicNames() {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
