package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.Owned;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code P.placements} and every cluster's own topics ({@code P.from.CLUSTER.cluster|workloads|events})
 * from the beginning (compacted, so this rebuilds state after any restart) and then follows them,
 * handing every record {@link Records} accepts to the coordinator. Clusters are found by their topics'
 * names ({@link Assignment}), also before a mark's end offsets are taken. Says once when it has
 * read up to where each partition known at start stood then, and again, when asked ({@link #mark}), once
 * it has read up to where every partition stands at that moment — a new leader acts only after reading
 * everything the previous leader committed and every cluster that existed. Reads committed records
 * only, so a fenced leader's aborted writes are never seen. No consumer group: every broker instance
 * reads everything. A record Records refuses (undecodable, or claiming a cluster other than its
 * topic's) is counted, logged with its offset and skipped; a failing poll is retried with backoff —
 * only closing ends the loop. A cluster topic's records are put together per cluster ({@link ClusterAssembly}):
 * the coordinator gets the cluster's whole summary, with the nodes that changed, once per poll at the newest
 * header read (older headers in the same poll are superseded: catching up on a long topic costs one summary
 * per cluster and poll, not one per header), and only the newest record of each key up to that header is
 * decoded ({@link ClusterReader}, {@link Newest}). Runs on its own thread, and decodes on another ({@link Decoding}):
 * fetching the next records overlaps decoding the last ones.
 */
public final class Ingest implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, String> kafka;
    private final Topics topics;
    private final Records records;
    private final Coordinator coordinator;
    private final Topology topology;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong markRequested = new AtomicLong(-1);
    /** The partitions read, and which are clusters' cluster topics. */
    private final Assignment assignment;

    private final Summaries summaries;
    /** Cluster topics' records, newest per key, into their summaries (decoding thread). */
    private final ClusterReader clusterReader;
    /** Decodes and hands on what the polling thread read, in order, on a thread of its own. */
    private final Decoding decoding = new Decoding();
    /**
     * Makes a newly heard-of cluster's command topic, off the reading threads (the outbox makes sure of it again
     * before it sends a command there).
     */
    private final ExecutorService commandTopics = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ingest-command-topics");
        t.setDaemon(true);
        return t;
    });

    public Ingest(Map<String, String> kafka, Topics topics, Topology topology, Coordinator coordinator) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.kafka = Map.copyOf(kafka);
        this.topics = topics;
        this.records = new Records(topics);
        this.coordinator = coordinator;
        this.topology = topology;
        this.summaries = new Summaries(
                coordinator, cluster -> commandTopics.execute(() -> topology.ensureCommandTopicOrLog(cluster)));
        this.clusterReader = new ClusterReader(records, summaries::assembly, this::deliver);
        this.assignment = new Assignment(
                consumer,
                topics,
                (tp, cluster) -> decoding.then(() -> {
                    clusterReader.forget(tp);
                    summaries.forget(cluster);
                }));
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
            if (!start()) {
                return;
            }
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(assignment.assigned()));
            boolean caughtUp = false;
            long marking = -1;
            Map<TopicPartition, Long> markEnd = Map.of();
            long backoff = 250;
            while (running.get()) {
                try {
                    if (assignment.due()) {
                        assignment.discover();
                    }
                    long asked = markRequested.get();
                    if (asked >= 0) {
                        assignment.discover(); // a cluster that exists now is read before the mark is answered
                        markEnd = new HashMap<>(consumer.endOffsets(assignment.assigned()));
                        marking = asked;
                        // taken only now: a request is not lost when the calls above fail (a newer one stays)
                        markRequested.compareAndSet(asked, -1);
                    }
                    ConsumerRecords<String, byte[]> batch = consumer.poll(Duration.ofMillis(200));
                    Set<TopicPartition> behind = behind();
                    decoding.then(() -> deliver(batch, behind)); // even empty: what waits for the rest may go on
                    if (!caughtUp && reached(end)) {
                        caughtUp = true;
                        decoding.then(() -> {
                            clusterReader.flush();
                            coordinator.post(new Input.CaughtUp());
                        });
                    }
                    if (marking >= 0 && reached(markEnd)) {
                        long marked = marking;
                        decoding.then(() -> {
                            clusterReader.flush();
                            coordinator.post(new Input.Marked(marked));
                        });
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
            decoding.close();
            commandTopics.shutdownNow();
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** The cluster topics' partitions of which the consumer holds (or knows of) more than it handed over. */
    private Set<TopicPartition> behind() {
        Set<TopicPartition> behind = new HashSet<>();
        for (TopicPartition tp : assignment.clusterPartitions()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent() && lag.getAsLong() > 0) {
                behind.add(tp);
            }
        }
        return behind;
    }

    /** Drops the partitions read up to their end offset (and those no longer assigned); true when none is left. */
    private boolean reached(Map<TopicPartition, Long> end) {
        end.keySet().retainAll(assignment.assigned());
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

    /**
     * Creates {@code P.placements} if missing, then assigns it and every cluster's topics found, from the
     * beginning; retried with backoff while Kafka cannot be reached. False once closed.
     */
    private boolean start() {
        long backoff = 250;
        while (running.get()) {
            try {
                topology.ensurePlacements().forEach(shortfall -> LOG.warn("{}", shortfall));
                assignment.start(consumer.listTopics(Duration.ofSeconds(30)));
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (WakeupException e) {
                return false;
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
                    return false;
                }
                backoff = Math.min(backoff * 2, 30_000);
            }
        }
        return false;
    }

    /**
     * One poll's records, partition by partition, in order; a cluster topic's through {@link ClusterReader}
     * ({@code behind}: the partitions the consumer has more of).
     */
    private void deliver(ConsumerRecords<String, byte[]> batch, Set<TopicPartition> behind) {
        for (TopicPartition tp : batch.partitions()) {
            List<ConsumerRecord<String, byte[]>> polled = batch.records(tp);
            String cluster = assignment.cluster(tp);
            if (cluster != null) {
                clusterReader.read(tp, cluster, polled, behind.contains(tp));
            } else {
                polled.forEach(r -> deliver(r, records.read(r.topic(), r.key(), r.value()), false));
            }
        }
        clusterReader.settle(behind);
    }

    private void deliver(ConsumerRecord<String, byte[]> r, Records.Read read, boolean lastHeader) {
        if (read instanceof Records.Read.Deliver d) {
            coordinator.post(d.input());
        } else if (read instanceof Records.Read.Part p) {
            summaries.part(p, lastHeader).ifPresent(reason -> poison(r, reason));
        } else if (read instanceof Records.Read.Poison p) {
            p.unreadable().ifPresent(summaries::unreadable);
            poison(r, p.reason());
            if (lastHeader) { // a refused header: what was completed before it is still handed on
                topics.owner(r.topic()).map(Owned::cluster).ifPresent(summaries::take);
            }
        }
    }

    private void poison(ConsumerRecord<String, byte[]> r, String reason) {
        coordinator.poisonRecord();
        LOG.warn("skipping record at {}-{} offset {}: {}", r.topic(), r.partition(), r.offset(), reason);
    }

    /**
     * Records behind the log end per topic read, as the consumer's own metrics say after its last fetch (no call to
     * Kafka). Thread-safe: the consumer's metrics may be read from any thread.
     */
    public Map<String, Long> lag() {
        return Lag.byTopic(consumer.metrics());
    }

    @Override
    public void close() {
        running.set(false);
        decoding.close();
        consumer.wakeup();
    }
}
