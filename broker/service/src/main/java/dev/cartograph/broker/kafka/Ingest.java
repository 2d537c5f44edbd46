package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
 * decoded ({@link ClusterReader}, {@link Newest}). Runs on its own thread, and decodes on others ({@link Decoders}):
 * fetching the next records overlaps decoding the last ones, and clusters are decoded side by side, each partition
 * in order on the one thread it was given to.
 */
public final class Ingest implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);
    private static final int MAX_DECODING_THREADS = 4;

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, String> kafka;
    private final Coordinator coordinator;
    private final Topology topology;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong markRequested = new AtomicLong(-1);
    /** The partitions read, and which are clusters' cluster topics. */
    private final Assignment assignment;

    /** Decodes and hands on what the polling thread read, each partition in order, on threads of their own. */
    private final Decoders decoders;
    /**
     * Makes a newly heard-of cluster's command topic, off the reading threads (the outbox makes sure of it again
     * before it sends a command there).
     */
    private final ExecutorService commandTopics = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ingest-command-topics");
        t.setDaemon(true);
        return t;
    });

    /**
     * Decodes on a thread per processor beyond the two the polling thread and the coordinator keep busy while catching
     * up: at least one, at most {@value #MAX_DECODING_THREADS}. (On 2 processors a second decoding thread only competes
     * with them: IngestBenchmark read no faster with two, and the two spent more CPU than one.)
     */
    public Ingest(Map<String, String> kafka, Topics topics, Topology topology, Coordinator coordinator) {
        this(
                kafka,
                topics,
                topology,
                coordinator,
                decodingThreads(Runtime.getRuntime().availableProcessors()));
    }

    /** How many threads decode on a machine of {@code processors}. */
    static int decodingThreads(int processors) {
        return Math.max(1, Math.min(MAX_DECODING_THREADS, processors - 2));
    }

    /** @param decodingThreads how many threads decode (clusters are shared out among them) */
    public Ingest(
            Map<String, String> kafka, Topics topics, Topology topology, Coordinator coordinator, int decodingThreads) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.kafka = Map.copyOf(kafka);
        this.coordinator = coordinator;
        this.topology = topology;
        this.assignment =
                new Assignment(consumer, topics, (tp, cluster) -> decoders().forget(tp, cluster));
        this.decoders = new Decoders(
                decodingThreads,
                topics,
                assignment::cluster,
                new Decoders.Out() {
                    @Override
                    public void post(Input input) {
                        coordinator.post(input);
                    }

                    @Override
                    public void poison() {
                        coordinator.poisonRecord();
                    }
                },
                cluster -> commandTopics.execute(() -> topology.ensureCommandTopicOrLog(cluster)));
    }

    private Decoders decoders() {
        return decoders;
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
                    decoders.deliver(batch, behind); // even empty: what waits for the rest may go on
                    if (!caughtUp && reached(end)) {
                        caughtUp = true;
                        decoders.flushThen(() -> coordinator.post(new Input.CaughtUp()));
                    }
                    if (marking >= 0 && reached(markEnd)) {
                        long marked = marking;
                        decoders.flushThen(() -> coordinator.post(new Input.Marked(marked)));
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
            decoders.close();
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

    /**
     * Drops the partitions read up to their end offset, or to the end of a log now shorter than that ({@link CatchUp}),
     * and those no longer assigned; true when none is left.
     */
    private boolean reached(Map<TopicPartition, Long> end) {
        end.keySet().retainAll(assignment.assigned());
        end.entrySet()
                .removeIf(e ->
                        CatchUp.reached(consumer.position(e.getKey()), e.getValue(), consumer.currentLag(e.getKey())));
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
     * Records behind the log end per topic read, as the consumer's own metrics say after its last fetch (no call to
     * Kafka). Thread-safe: the consumer's metrics may be read from any thread.
     */
    public Map<String, Long> lag() {
        return Lag.byTopic(consumer.metrics());
    }

    @Override
    public void close() {
        running.set(false);
        decoders.close();
        consumer.wakeup();
    }
}
