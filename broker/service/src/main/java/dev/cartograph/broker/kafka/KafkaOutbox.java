package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Outbox;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The broker's producer: idempotent, acks=all; placement records are waited for, commands are not. Thread-safe. */
public final class KafkaOutbox implements Outbox, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaOutbox.class);
    private final KafkaProducer<String, byte[]> producer;
    private final Topics topics;

    public KafkaOutbox(Map<String, String> kafka, Topics topics) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        this.topics = topics;
    }

    @Override
    public void placement(PlacementRecord record) throws Exception {
        producer.send(new ProducerRecord<>(topics.placements(), record.uid(), Wire.encode(record))).get(30, TimeUnit.SECONDS);
    }

    @Override
    public void forget(String uid) throws Exception {
        producer.send(new ProducerRecord<>(topics.placements(), uid, null)).get(30, TimeUnit.SECONDS);
    }

    @Override
    public void command(String cluster, Command command) {
        producer.send(new ProducerRecord<>(topics.commands(cluster), command.placementId(), Wire.encode(command)), (meta, e) -> {
            if (e != null) {
                LOG.error("could not send {} for {} to {}: {}", command.getClass().getSimpleName(), command.placementId(), cluster, e.toString());
            }
        });
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
