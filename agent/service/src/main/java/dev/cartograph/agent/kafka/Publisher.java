package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import dev.cartograph.protocol.kafka.Producers;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;

/**
 * The agent's only producer: idempotent, acks=all, compressed; it writes only to its cluster's own
 * topics ({@code P.from.CLUSTER.*}, which {@link OwnTopics} makes exist first). After a failed durable send the command
 * loop {@linkplain #reset() resets} it: a new producer replaces one that may be stuck (records still
 * buffered in the old one are dropped; summaries go out again on the next interval, and the cluster topic's
 * records are all written again, as {@link #takeClusterLost()} tells the publishing round). Thread-safe.
 */
public final class Publisher implements CommandLoop.Results, AutoCloseable {
    private final Map<String, Object> config;
    private final String clusterTopic;
    private final String workloadsTopic;
    private final String eventsTopic;
    private volatile KafkaProducer<String, byte[]> producer;
    /** Some cluster-topic record may not have reached Kafka since the last {@link #takeClusterLost()}. */
    private final AtomicBoolean clusterLost = new AtomicBoolean();

    /** Writes to {@code cluster}'s own topics only ({@code P.from.CLUSTER.*}). */
    public Publisher(Map<String, String> kafka, Topics topics, String cluster) {
        Map<String, Object> config = Producers.durable(kafka);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.config = Map.copyOf(config);
        this.producer = create();
        this.clusterTopic = topics.of(cluster, AgentTopic.CLUSTER);
        this.workloadsTopic = topics.of(cluster, AgentTopic.WORKLOADS);
        this.eventsTopic = topics.of(cluster, AgentTopic.EVENTS);
    }

    private KafkaProducer<String, byte[]> create() {
        return Producers.create(config);
    }

    /**
     * Sends one round of cluster-topic records ({@code ClusterDeltas}), in order, header last;
     * {@code acknowledged} runs (on the producer's thread) once Kafka has the header. A record that fails,
     * here or later, is noted for {@link #takeClusterLost()}.
     */
    public void cluster(List<ClusterRecord> records, Runnable acknowledged) {
        Callback noteLoss = (metadata, error) -> {
            if (error != null) {
                clusterLost.set(true);
            }
        };
        try {
            for (ClusterRecord r : records) {
                Callback callback = r instanceof ClusterRecord.Header ? whenAcknowledged(acknowledged) : noteLoss;
                producer.send(
                        new ProducerRecord<>(clusterTopic, r.key().kafkaKey(), Wire.encode(r)), (metadata, error) -> {
                            noteLoss.onCompletion(metadata, error);
                            callback.onCompletion(metadata, error);
                        });
            }
        } catch (RuntimeException e) {
            clusterLost.set(true);
            throw e;
        }
    }

    /** Whether a cluster-topic record may have been lost since the last call (then everything must be written again). */
    public boolean takeClusterLost() {
        return clusterLost.getAndSet(false);
    }

    /** Sends a workload summary; {@code acknowledged} runs (on the producer's thread) once Kafka has it. */
    public void workload(WorkloadSummary summary, Runnable acknowledged) {
        producer.send(
                new ProducerRecord<>(workloadsTopic, summary.key().kafkaKey(), Wire.encode(summary)),
                whenAcknowledged(acknowledged));
    }

    /** A tombstone: the workload is gone; {@code acknowledged} runs once Kafka has it. */
    public void workloadDeleted(WorkloadKey key, Runnable acknowledged) {
        producer.send(new ProducerRecord<>(workloadsTopic, key.kafkaKey(), null), whenAcknowledged(acknowledged));
    }

    private static Callback whenAcknowledged(Runnable acknowledged) {
        return (metadata, error) -> {
            if (error == null) {
                acknowledged.run();
            }
        };
    }

    /**
     * Sends a command result and waits until Kafka has it (the command's offset is committed after).
     *
     * @throws KafkaException when Kafka did not confirm it within 30 s (it may still arrive: results are idempotent)
     */
    @Override
    public void durably(CommandResult result) {
        try {
            producer.send(new ProducerRecord<>(eventsTopic, result.placementId(), Wire.encode(result)))
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException("result not durable", e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("result not confirmed by Kafka within 30s");
        }
    }

    /** Replaces the producer with a new one; the old one is closed without waiting for what it still holds. */
    @Override
    public synchronized void reset() {
        KafkaProducer<String, byte[]> old = producer;
        producer = create();
        clusterLost.set(true);
        old.close(java.time.Duration.ZERO);
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
