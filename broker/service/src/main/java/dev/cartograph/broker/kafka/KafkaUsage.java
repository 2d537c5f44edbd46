package dev.cartograph.broker.kafka;

import dev.cartograph.broker.usage.UsageRecords;
import dev.cartograph.broker.usage.UsageStore;
import dev.cartograph.protocol.Topics;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Usage kept in the compacted {@code P.usage} topic (one partition, one record per UTC hour, {@link UsageRecords}):
 * written through the broker's transactional {@link KafkaOutbox} (a deposed leader is fenced), read from the
 * beginning to the end committed, with {@code read_committed}, by a consumer made for each read. {@link #write} on the
 * coordinator's thread only (the outbox's); {@link #load} is thread-safe.
 */
public final class KafkaUsage implements UsageStore {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaUsage.class);
    static final Duration READ_FOR_AT_MOST = Duration.ofSeconds(5);

    private final Map<String, String> kafka;
    private final Topics topics;
    private final Topology topology;
    private final KafkaOutbox outbox;

    public KafkaUsage(Map<String, String> kafka, Topics topics, Topology topology, KafkaOutbox outbox) {
        this.kafka = kafka;
        this.topics = topics;
        this.topology = topology;
        this.outbox = outbox;
    }

    @Override
    public Ledger load() throws Exception {
        topology.ensureUsage().forEach(shortfall -> LOG.warn("{}", shortfall));
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        TopicPartition partition = new TopicPartition(topics.usage(), 0);
        Map<Instant, Map<UsageKey, Long>> hours = new TreeMap<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), READ_FOR_AT_MOST).get(partition);
            long deadline = System.nanoTime() + READ_FOR_AT_MOST.toNanos();
            while (consumer.position(partition, READ_FOR_AT_MOST) < end) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException(
                            topics.usage() + " not read to offset " + end + " within " + READ_FOR_AT_MOST);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    take(r, hours);
                }
            }
        }
        return Ledger.of(hours);
    }

    private void take(ConsumerRecord<String, byte[]> r, Map<Instant, Map<UsageKey, Long>> hours) {
        UsageRecords.Read read = UsageRecords.decode(r.key() == null ? "" : r.key(), r.value());
        if (read instanceof UsageRecords.Hour h) {
            hours.put(h.hour(), h.gpuMillis());
        } else if (read instanceof UsageRecords.Gone g) {
            hours.remove(g.hour());
        } else if (read instanceof UsageRecords.Failed f) {
            LOG.warn("{} offset {} skipped: {}", r.topic(), r.offset(), f.reason());
        }
    }

    @Override
    public void write(Map<Instant, Map<UsageKey, Long>> hours) throws Exception {
        topology.ensureUsage().forEach(shortfall -> LOG.warn("{}", shortfall));
        Map<String, byte[]> records = new LinkedHashMap<>();
        hours.forEach((hour, amounts) ->
                records.put(UsageRecords.key(hour), amounts.isEmpty() ? null : UsageRecords.encode(hour, amounts)));
        outbox.usage(records);
    }
}
