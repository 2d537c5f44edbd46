package dev.cartograph.kafka.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.IntegerDeserializer;
import org.apache.kafka.common.serialization.IntegerSerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three in-process KRaft nodes, topics with replication factor 3 and {@code min.insync.replicas=2},
 * and a producer configured like the Cartograph broker's ({@code KafkaOutbox}: idempotent,
 * {@code acks=all}, zstd, no linger): a broker that crashes mid-stream and comes back loses and
 * doubles nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalKafkaClusterIT {
    private static final String TOPIC = "numbers";
    private static final int PARTITIONS = 3;

    @TempDir
    static Path tmp;

    static LocalKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        long t0 = System.nanoTime();
        cluster = LocalKafkaCluster.start(tmp.resolve("cluster"), 3);
        System.out.printf("LocalKafkaCluster of 3: started in %d ms%n", millisSince(t0));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            long t0 = System.nanoTime();
            cluster.close();
            System.out.printf("LocalKafkaCluster of 3: stopped in %d ms%n", millisSince(t0));
        }
    }

    @Test
    void aBrokerCrashingMidStreamLosesAndDoublesNoRecord() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                            .configs(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2"))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            int victim = described(admin).partitions().get(0).leader().id();
            ConcurrentLinkedQueue<Future<RecordMetadata>> sent = new ConcurrentLinkedQueue<>();
            AtomicInteger acked = new AtomicInteger();
            AtomicBoolean producing = new AtomicBoolean(true);
            int total;
            try (KafkaProducer<String, Integer> producer = outboxLikeProducer()) {
                AtomicInteger next = new AtomicInteger();
                CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> {
                    while (producing.get()) {
                        int n = next.getAndIncrement();
                        sent.add(producer.send(new ProducerRecord<>(TOPIC, n % PARTITIONS, "n" + n, n), (m, e) -> {
                            if (e == null) {
                                acked.incrementAndGet();
                            }
                        }));
                        pause(1);
                    }
                });
                await("the stream to start", () -> acked.get() >= 300);

                long t0 = System.nanoTime();
                cluster.kill(victim); // the leader of partition 0, mid-stream
                int atKill = acked.get();
                await(
                        "the controller to drop node " + victim + " from every ISR",
                        () -> isr(admin).stream().allMatch(i -> i == 2));
                System.out.printf(
                        "node %d killed at %d acked; out of every ISR after %d ms%n", victim, atKill, millisSince(t0));
                await("writes to go on with two in-sync replicas", () -> acked.get() >= atKill + 300);

                long t1 = System.nanoTime();
                cluster.restart(victim);
                int atRestart = acked.get();
                System.out.printf("node %d restarted in %d ms at %d acked%n", victim, millisSince(t1), atRestart);
                await("writes to go on after the restart", () -> acked.get() >= atRestart + 300);
                producing.set(false);
                stream.get(30, TimeUnit.SECONDS);
                producer.flush();
                total = next.get();
            }
            for (Future<RecordMetadata> f : sent) {
                f.get(); // every send was acknowledged: none failed for the producer either
            }
            assertThat(sent).hasSize(total);
            assertThat(acked.get()).isEqualTo(total);

            long t2 = System.nanoTime();
            await(
                    "node " + victim + " to catch up and rejoin every ISR",
                    () -> isr(admin).stream().allMatch(i -> i == 3));
            System.out.printf(
                    "node %d back in every ISR after %d ms; %d records sent%n", victim, millisSince(t2), total);
            assertEveryNumberOnceInOrder(readAll(), total);

            // the restarted node holds everything too: read again with another node (its peer in every ISR) gone
            int other = victim % 3 + 1;
            cluster.kill(other);
            try {
                assertEveryNumberOnceInOrder(readAll(), total);
            } finally {
                cluster.restart(other);
            }
        }
    }

    @Test
    void aKilledNodeRestartsWithoutItsCleanShutdownMarker() {
        Path node3 = tmp.resolve("cluster").resolve("node-3");
        assertThat(cluster.isRunning(3)).isTrue();
        cluster.kill(3);
        assertThat(cluster.isRunning(3)).isFalse();
        assertThat(node3.resolve(KafkaNode.CLEAN_SHUTDOWN_MARKER)).doesNotExist();
        cluster.restart(3);
        assertThat(cluster.isRunning(3)).isTrue();
    }

    /** Partition p holds p, p+3, p+6, … up to total, once each and in that order (hand count: the producer sent n to partition n % 3). */
    private static void assertEveryNumberOnceInOrder(Map<Integer, List<Integer>> byPartition, int total) {
        for (int p = 0; p < PARTITIONS; p++) {
            List<Integer> expected = new ArrayList<>();
            for (int n = p; n < total; n += PARTITIONS) {
                expected.add(n);
            }
            assertThat(byPartition.getOrDefault(p, List.of()))
                    .as("partition %d", p)
                    .isEqualTo(expected);
        }
    }

    /** Every record of the topic, from the beginning to the end offsets at the time of the call. */
    private static Map<Integer, List<Integer>> readAll() {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        try (KafkaConsumer<String, Integer> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new IntegerDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
            Map<Integer, List<Integer>> read = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (!end.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, Integer> r : consumer.poll(Duration.ofMillis(200))) {
                    read.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r.value());
                }
                end.entrySet().removeIf(e -> consumer.position(e.getKey(), Duration.ofSeconds(30)) >= e.getValue());
            }
            assertThat(end).as("partitions not read to their end").isEmpty();
            return read;
        }
    }

    /** What KafkaOutbox (broker/service) configures; keep the two in step. */
    private static KafkaProducer<String, Integer> outboxLikeProducer() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        return new KafkaProducer<>(config, new StringSerializer(), new IntegerSerializer());
    }

    /**
     * The topic as soon as the broker asked knows it with a leader for every partition: createTopics returns once the
     * controller has it, and a broker may answer UnknownTopicOrPartition for a moment after (a race CI met once).
     */
    private static TopicDescription described(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                TopicDescription d = describe(admin);
                if (d.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    return d;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(TOPIC + " has a partition without a leader 30 s after it was created");
            }
            Thread.sleep(100);
        }
    }

    private static TopicDescription describe(Admin admin) throws Exception {
        return admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(TOPIC);
    }

    private static List<Integer> isr(Admin admin) {
        try {
            return describe(admin).partitions().stream()
                    .map(TopicPartitionInfo::isr)
                    .map(List::size)
                    .toList();
        } catch (Exception e) {
            return Collections.nCopies(PARTITIONS, -1);
        }
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            pause(50);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
