package dev.cartograph.protocol.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The producer every writer of protocol records (the broker, the agents) uses: idempotent with
 * {@code acks=all}, so a send that completed is on every in-sync replica and a retried one is never
 * written twice; zstd-compressed unless the settings say otherwise; {@code String} keys and
 * {@link dev.cartograph.protocol.Wire}-encoded values. The deployment's Kafka settings (servers,
 * security, tuning) pass through, but cannot turn durability off. Stateless; thread-safe.
 */
public final class Producers {
    private Producers() {}

    /** The producer configuration: {@code settings} with durability enforced and compression defaulted. A new, mutable map. */
    public static Map<String, Object> durable(Map<String, String> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        return config;
    }

    /** A producer of protocol records with this configuration (from {@link #durable}, plus the caller's own settings). */
    public static KafkaProducer<String, byte[]> create(Map<String, Object> config) {
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }
}
