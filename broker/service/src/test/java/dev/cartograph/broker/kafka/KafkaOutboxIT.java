package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.broker.coordinate.Outbox;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's outbox against a real Kafka broker (KRaft, in-process, one node): every command it writes carries the
 * leader term it was activated for (issue 33, finding 6: agents order a placement's commands by it), whether it goes
 * out with a batch, alone, or after its size was checked.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaOutboxIT {
    static final Instant AT = Instant.parse("2026-12-02T12:00:00Z");

    @TempDir
    static Path tmp;

    static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(tmp.resolve("kafka"));
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void everyCommandWrittenCarriesTheTermTheOutboxWasActivatedFor() throws Exception {
        Topics topics = new Topics("terms");
        String cluster = "gpu-east";
        kafka.createTopics(topics.commands(cluster));
        Command delete = new Command.Delete("uid-1", 2, AT, new WorkloadKey(cluster, "ml", "batch", "Job", "j"));
        Command apply = new Command.Apply(
                "uid-2", 1, AT, JsonNodeFactory.instance.objectNode().put("kind", "Job"));
        Command checked = new Command.Apply(
                "uid-3", 1, AT, JsonNodeFactory.instance.objectNode().put("kind", "Job"));
        try (KafkaOutbox outbox =
                new KafkaOutbox(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics, c -> {})) {
            outbox.activate(7);
            outbox.write(List.of(new Outbox.Write.ToCluster(cluster, delete)));
            assertThat(outbox.tooLarge(checked)).isEmpty(); // encoded here, under term 7
            outbox.activate(8); // a new term: what was encoded before is encoded again
            outbox.write(List.of(new Outbox.Write.ToCluster(cluster, checked)));
            assertThat(outbox.command(cluster, apply)).isTrue();
        }

        // by hand: the delete under term 7; the checked apply and the apply after activation 8
        assertThat(read(topics.commands(cluster)))
                .containsExactly(delete.withTerm(7), checked.withTerm(8), apply.withTerm(8));
        assertThat(delete.term()).as("the coordinator's command is not changed").isZero();
    }

    private static List<Command> read(String topic) {
        List<Command> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(
                Map.of(
                        "bootstrap.servers",
                        kafka.bootstrapServers(),
                        "group.id",
                        "it-" + System.nanoTime(),
                        "auto.offset.reset",
                        "earliest",
                        "isolation.level",
                        "read_committed"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (out.size() < 3 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(((Decoded.Ok<Command>) Wire.decodeCommand(r.value())).value());
                }
            }
        }
        return out;
    }
}
