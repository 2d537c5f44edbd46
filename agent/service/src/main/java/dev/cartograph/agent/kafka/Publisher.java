package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The agent's only producer: idempotent, acks=all, compressed. Thread-safe (KafkaProducer is). */
public final class Publisher implements AutoCloseable {
    private final KafkaProducer<String, byte[]> producer;
    private final Topics topics;

    public Publisher(Map<String, String> kafka, Topics topics) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        this.topics = topics;
    }

    public void cluster(ClusterSummary summary) {
        producer.send(new ProducerRecord<>(topics.clusters(), summary.cluster(), Wire.encode(summary)));
    }

    public void workload(WorkloadSummary summary) {
        producer.send(new ProducerRecord<>(topics.workloads(), summary.key().kafkaKey(), Wire.encode(summary)));
    }

    /** A tombstone: the workload is gone. */
    public void workloadDeleted(WorkloadKey key) {
        producer.send(new ProducerRecord<>(topics.workloads(), key.kafkaKey(), null));
    }

    /** Sends a command result and waits until Kafka has it (the command's offset is committed after). */
    public void resultDurably(CommandResult result) throws InterruptedException, ExecutionException, TimeoutException {
        producer.send(new ProducerRecord<>(topics.events(), result.placementId(), Wire.encode(result))).get(30, TimeUnit.SECONDS);
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
