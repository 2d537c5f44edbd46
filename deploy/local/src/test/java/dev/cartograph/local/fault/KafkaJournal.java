package dev.cartograph.local.fault;

import dev.cartograph.local.fault.history.Durable;
import dev.cartograph.local.fault.history.Sent;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * After a run, reads and writes what the broker and the agents said to each other — the placements, commands, events and
 * workload summaries topics, as committed ({@code read_committed}), in time order — to a file beside the logs: the
 * record to read when an invariant fails (the services log little per gang). Cluster summaries are left out (one a
 * second per member). The placement records and commands among them go into the run's history (invariants I4, I5).
 */
final class KafkaJournal {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    static final Topics TOPICS = new Topics("cartograph");

    private KafkaJournal() {}

    /** Every record of Cartograph's topics but the cluster summaries, as committed, in time order. */
    static List<ConsumerRecord<String, byte[]>> read(String bootstrapServers) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        conf.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        conf.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(conf, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.listTopics(Duration.ofSeconds(10)).forEach((topic, infos) -> {
                boolean heartbeats = TOPICS.owner(topic)
                        .filter(o -> o.topic() == Topics.AgentTopic.CLUSTER)
                        .isPresent();
                if (topic.startsWith("cartograph.") && !heartbeats) {
                    infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
                }
            });
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        records.sort(Comparator.comparingLong((ConsumerRecord<String, byte[]> r) -> r.timestamp())
                .thenComparing(ConsumerRecord::topic)
                .thenComparingLong(ConsumerRecord::offset));
        return records;
    }

    /** The records of the placements topic among {@code records}. */
    static List<ConsumerRecord<String, byte[]>> placements(List<ConsumerRecord<String, byte[]>> records) {
        return records.stream()
                .filter(r -> r.topic().equals(TOPICS.placements()))
                .toList();
    }

    /** The committed placement records and tombstones among the records, for the history. */
    static List<Durable> durable(List<ConsumerRecord<String, byte[]>> records) {
        List<Durable> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            if (!r.topic().equals(TOPICS.placements())) {
                continue;
            }
            if (r.value() == null) {
                out.add(new Durable(r.timestamp(), r.offset(), r.key(), 0, "", "", true));
            } else if (Wire.decodePlacement(r.value()) instanceof Decoded.Ok<PlacementRecord> ok) {
                PlacementRecord p = ok.value();
                out.add(new Durable(
                        r.timestamp(),
                        r.offset(),
                        p.uid(),
                        p.epoch(),
                        p.cluster().orElse(""),
                        p.state().name(),
                        false));
            }
        }
        return out;
    }

    /** The committed commands among the records, for the history. */
    static List<Sent> sent(List<ConsumerRecord<String, byte[]>> records) {
        List<Sent> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            if (!r.topic().startsWith(TOPICS.commandsPrefix()) || r.value() == null) {
                continue;
            }
            if (Wire.decodeCommand(r.value()) instanceof Decoded.Ok<Command> ok) {
                Command c = ok.value();
                out.add(new Sent(
                        r.timestamp(),
                        r.topic().substring(TOPICS.commandsPrefix().length()),
                        c.placementId(),
                        c.epoch(),
                        c.getClass().getSimpleName()));
            }
        }
        return out;
    }

    /** Writes the records to a file, one line each: time, topic@offset, key, value. */
    static void write(List<ConsumerRecord<String, byte[]>> records, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (ConsumerRecord<String, byte[]> r : records) {
                out.write(TIME.format(Instant.ofEpochMilli(r.timestamp())) + " " + r.topic() + "@" + r.offset() + " "
                        + r.key() + " "
                        + (r.value() == null ? "(tombstone)" : new String(r.value(), StandardCharsets.UTF_8)) + "\n");
            }
        }
    }
}
