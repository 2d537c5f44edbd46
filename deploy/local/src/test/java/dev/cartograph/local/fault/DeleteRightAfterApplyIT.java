package dev.cartograph.local.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.agent.AgentRuntime;
import dev.cartograph.agent.AgentSettings;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the fault suite (docs/reliability.md, finding 1): an agent that read a Delete right after the Apply of the
 * same placement looked for the copy only in its informer cache, which had not seen its own create yet, answered
 * {@code DELETED "nothing to delete"}, and the copy stayed on the member for good (the broker then wrote the tombstone
 * and removed the hub object's finalizer). The real agent, a real Kafka, one member. A race: before the fix it left a
 * copy in every run on a busy machine, but could pass on a quiet one.
 */
@Timeout(120)
class DeleteRightAfterApplyIT {
    private static final String CLUSTER = "member";
    private static final int PLACEMENTS = 40;

    @TempDir
    Path dir;

    @Test
    void aDeleteReadRightAfterItsApplyDeletesTheCopy() throws Exception {
        Topics topics = new Topics("cartograph");
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"));
                MockApiServer member = MockApiServer.start()) {
            kafka.createTopics(topics.commands(CLUSTER)); // as the broker does; the agent creates its own topics
            member.client()
                    .namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("ml")
                            .endMetadata()
                            .build())
                    .create();
            AgentSettings settings = new AgentSettings(
                            CLUSTER,
                            Map.of(),
                            "cartograph",
                            Map.of("bootstrap.servers", kafka.bootstrapServers()),
                            Duration.ofMillis(300),
                            Duration.ofSeconds(1),
                            Set.of(),
                            true)
                    .withTopicSettings(TopicSettings.SINGLE_BROKER);
            try (AgentRuntime agent = new AgentRuntime(
                            settings,
                            new MemberCluster(member.client()),
                            Catalog.load().definitions(),
                            Clock.systemUTC());
                    KafkaProducer<String, byte[]> producer = producer(kafka)) {
                agent.start();
                // warmed up: the agent has applied (and its cache seen) one placement, and has been idle since
                producer.send(new ProducerRecord<>(
                        topics.commands(CLUSTER),
                        "warm-up",
                        Wire.encode(new Command.Apply("warm-up", 1, Instant.now(), job("warm-up")))));
                producer.flush();
                Eventually.until(
                        Duration.ofSeconds(30),
                        () -> member.client()
                                        .batch()
                                        .v1()
                                        .jobs()
                                        .inNamespace("ml")
                                        .withName("warm-up")
                                        .get()
                                != null,
                        () -> "the warm-up Job created");
                Thread.sleep(2_000);
                for (int i = 0; i < PLACEMENTS; i++) {
                    String placement = "p-" + i;
                    producer.send(new ProducerRecord<>(
                            topics.commands(CLUSTER),
                            placement,
                            Wire.encode(new Command.Apply(placement, 1, Instant.now(), job("job-" + i)))));
                    producer.send(new ProducerRecord<>(
                            topics.commands(CLUSTER),
                            placement,
                            Wire.encode(new Command.Delete(
                                    placement,
                                    1,
                                    Instant.now(),
                                    new WorkloadKey(CLUSTER, "ml", "batch", "Job", "job-" + i)))));
                }
                producer.flush();
                Map<String, String> deletes = deleteAnswers(kafka, topics);
                List<String> left = member.client().batch().v1().jobs().inNamespace("ml").list().getItems().stream()
                        .filter(j -> !j.getMetadata().getName().equals("warm-up"))
                        .map(j -> j.getMetadata().getName() + " (delete answered: "
                                + deletes.get(j.getMetadata().getLabels().get(MemberStores.PLACEMENT_LABEL)) + ")")
                        .toList();
                assertThat(left)
                        .as("copies left on the member after their Delete was answered DELETED")
                        .isEmpty();
            }
        }
    }

    /** Reads the events topic until every placement's Delete is answered; placement id → the answer's reason. */
    private static Map<String, String> deleteAnswers(LocalKafka kafka, Topics topics) throws InterruptedException {
        Map<String, String> answers = new ConcurrentHashMap<>();
        Map<String, Object> conf = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "repro",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(conf, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.of(CLUSTER, Topics.AgentTopic.EVENTS)));
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                            if (Wire.decodeResult(r.value()) instanceof Decoded.Ok<CommandResult> ok
                                    && ok.value().command().equals("delete")
                                    && ok.value().outcome() == CommandResult.Outcome.DELETED) {
                                answers.put(ok.value().placementId(), ok.value().reason());
                            }
                        });
                        return answers.size() == PLACEMENTS;
                    },
                    () -> answers.size() + " of " + PLACEMENTS + " deletes answered");
        }
        return answers;
    }

    private static KafkaProducer<String, byte[]> producer(LocalKafka kafka) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.LINGER_MS_CONFIG,
                        0),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    private static ObjectNode job(String name) {
        ObjectNode o = Documents.json()
                .createObjectNode()
                .put("apiVersion", "batch/v1")
                .put("kind", "Job");
        o.putObject("metadata").put("name", name).put("namespace", "ml");
        o.putObject("spec")
                .put("parallelism", 1)
                .putObject("template")
                .putObject("spec")
                .put("restartPolicy", "Never")
                .putArray("containers")
                .addObject()
                .put("name", "c")
                .put("image", "x");
        return o;
    }
}
