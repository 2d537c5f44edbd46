package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the cluster, workload, result and placement topics from the beginning (compacted, so this
 * rebuilds state after any restart) and then follows them, handing every decoded record to the
 * coordinator; says once when it has read up to where each partition stood at start, and again,
 * when asked ({@link #mark}), once it has read up to where they stand at that moment — a new leader
 * acts only after reading everything the previous leader committed. Reads committed records only,
 * so a fenced leader's aborted writes are never seen. No consumer group: every broker instance reads
 * everything. Undecodable records are counted, logged with their offset and skipped; a failing poll
 * is retried with backoff — only closing ends the loop. Runs on its own thread.
 */
public final class Ingest implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, String> kafka;
    private final Topics topics;
    private final Coordinator coordinator;
    private final Topology topology;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong markRequested = new AtomicLong(-1);

    public Ingest(Map<String, String> kafka, Topics topics, Topology topology, Coordinator coordinator) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.kafka = Map.copyOf(kafka);
        this.topics = topics;
        this.coordinator = coordinator;
        this.topology = topology;
    }

    /**
     * Asks for {@link Input.Marked}{@code (id)} once every record committed up to now has been read.
     * Thread-safe; a newer request replaces an older one not yet answered.
     */
    public void mark(long id) {
        markRequested.set(id);
    }

    @Override
    public void run() {
        try {
            List<TopicPartition> partitions = partitions();
            if (partitions == null) {
                return;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
            boolean caughtUp = false;
            long marking = -1;
            Map<TopicPartition, Long> markEnd = Map.of();
            long backoff = 250;
            while (running.get()) {
                try {
                    long asked = markRequested.getAndSet(-1);
                    if (asked >= 0) {
                        marking = asked;
                        markEnd = new HashMap<>(consumer.endOffsets(partitions));
                    }
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        deliver(r);
                    }
                    if (!caughtUp && reached(end)) {
                        caughtUp = true;
                        coordinator.post(new Input.CaughtUp());
                    }
                    if (marking >= 0 && reached(markEnd)) {
                        coordinator.post(new Input.Marked(marking));
                        marking = -1;
                    }
                    backoff = 250;
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    LOG.warn("reading Kafka failed ({}); trying again in {} ms", e.toString(), backoff);
                    sleep(backoff);
                    backoff = Math.min(backoff * 2, 10_000);
                }
            }
        } catch (WakeupException e) {
            if (running.get()) {
                LOG.error("ingest woken up while running", e);
            }
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Drops the partitions read up to their end offset; true when none is left. */
    private boolean reached(Map<TopicPartition, Long> end) {
        end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        return end.isEmpty();
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }

    /** The topics' partitions, creating missing topics; retried with backoff while Kafka cannot be reached. Null once closed. */
    private List<TopicPartition> partitions() {
        long backoff = 250;
        while (running.get()) {
            try {
                topology.ensureShared().forEach(shortfall -> LOG.warn("{}", shortfall));
                List<TopicPartition> partitions = new ArrayList<>();
                for (String topic :
                        List.of(topics.placements(), topics.clusters(), topics.workloads(), topics.events())) {
                    List<PartitionInfo> found = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                    if (found == null || found.isEmpty()) {
                        // just created: its metadata has not reached this client yet
                        throw new IllegalStateException("topic " + topic + " has no partitions yet");
                    }
                    for (PartitionInfo p : found) {
                        partitions.add(new TopicPartition(topic, p.partition()));
                    }
                }
                return partitions;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (WakeupException e) {
                return null;
            } catch (Exception e) {
                LOG.warn(
                        "Kafka at {} is not ready yet ({}); trying again in {} ms",
                        kafka.get("bootstrap.servers"),
                        e.toString(),
                        backoff);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                backoff = Math.min(backoff * 2, 30_000);
            }
        }
        return null;
    }

    private void deliver(ConsumerRecord<String, byte[]> r) {
        String topic = r.topic();
        if (topic.equals(topics.clusters())) {
            if (r.value() != null && r.key() != null) {
                topology.ensureCommandTopicOrLog(r.key());
            }
            if (r.value() != null) {
                accept(r, Wire.decodeCluster(r.value()), s -> new Input.Cluster((ClusterSummary) s));
            }
        } else if (topic.equals(topics.workloads())) {
            Optional<WorkloadKey> key = WorkloadKey.parse(r.key());
            if (key.isEmpty()) {
                poison(r, "key '" + r.key() + "' is not cluster/namespace/group/kind/name");
            } else if (r.value() == null) {
                coordinator.post(new Input.Workload(key.get(), Optional.empty()));
            } else {
                accept(
                        r,
                        Wire.decodeWorkload(r.value()),
                        s -> new Input.Workload(key.get(), Optional.of((WorkloadSummary) s)));
            }
        } else if (topic.equals(topics.events())) {
            accept(r, Wire.decodeResult(r.value()), s -> new Input.Result((CommandResult) s));
        } else if (topic.equals(topics.placements())) {
            if (r.value() == null) {
                coordinator.post(new Input.Placement(r.key(), Optional.empty()));
            } else {
                accept(
                        r,
                        Wire.decodePlacement(r.value()),
                        s -> new Input.Placement(((PlacementRecord) s).uid(), Optional.of((PlacementRecord) s)));
            }
        }
    }

    private <T> void accept(
            ConsumerRecord<String, byte[]> r, Decoded<T> decoded, java.util.function.Function<Object, Input> wrap) {
        if (decoded instanceof Decoded.Ok<T> ok) {
            coordinator.post(wrap.apply(ok.value()));
        } else {
            poison(r, ((Decoded.Failed<T>) decoded).reason());
        }
    }

    private void poison(ConsumerRecord<String, byte[]> r, String reason) {
        coordinator.poisonRecord();
        LOG.warn("skipping undecodable record at {}-{} offset {}: {}", r.topic(), r.partition(), r.offset(), reason);
    }

    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
    }
}
