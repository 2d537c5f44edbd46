package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.Coordinator;
import dev.cartograph.broker.coordinate.Hub;
import dev.cartograph.broker.coordinate.Outbox;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.fleet.FleetSnapshot;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.kafka.local.LocalKafka;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker's consumption of cluster summaries against a raw {@link KafkaConsumer} reading the same topics in
 * the same run, on a real in-process Kafka ({@link LocalKafka}). The topics hold what agents write: 100 clusters
 * of 2,000 nodes, each published whole once and then 40 rounds of 2 % of its nodes changing (the header after
 * each round). The raw consumer reads every record (same consumer settings as the ingest); the broker — {@link
 * Ingest} and a running {@link Coordinator} with a no-op outbox and hub — is done when every cluster's newest
 * summary is in its fleet. Both are timed from start to the last record (raw) or the last summary taken (broker).
 *
 * <p>Run: {@code mvn -B -q -ntp -pl broker/service -am test -Dtest=IngestBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * Settings (system properties, e.g. {@code -DargLine=-Dingest.warmups=2}): {@code ingest.warmups} (untimed runs of each
 * reader before the timed ones, default {@value #DEFAULT_WARMUPS}: fewer leave the JIT compiling in the timed runs);
 * {@code ingest.decoders} (the ingest's decoding threads, default its own choice for the machine); {@code
 * ingest.nodes=shapeless} (node records without labels, taints and allocatable, about 170 bytes instead of 620: what
 * a node record that only named its shape would cost both readers, to judge that protocol change before making it).
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class IngestBenchmark {
    static final int CLUSTERS = 100;
    static final int NODES = 2000;
    static final int ROUNDS = 40;
    static final int DEFAULT_WARMUPS = 6;
    static final int WARMUPS = Integer.getInteger("ingest.warmups", DEFAULT_WARMUPS);
    static final boolean SHAPELESS = "shapeless".equals(System.getProperty("ingest.nodes"));
    static final int MEASURED = 3;
    static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    /** Made once: loading the catalog is not ingest, and the JIT compiling its parsers would run in the timed runs. */
    static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());

    @Test
    void ingestReadsClusterTopicsAtLeastHalfAsFastAsARawConsumer() throws Exception {
        Path dir = Files.createTempDirectory("ingest-bench");
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"))) {
            Topics topics = new Topics("bench");
            List<String> clusterTopics = new ArrayList<>();
            for (int c = 0; c < CLUSTERS; c++) {
                clusterTopics.add(topics.of(SummaryVolumeBenchmark.name(c), Topics.AgentTopic.CLUSTER));
            }
            kafka.createTopics(clusterTopics.toArray(String[]::new));
            for (int c = 0; c < CLUSTERS; c++) { // a restarted broker finds them made
                kafka.createTopics(topics.commands(SummaryVolumeBenchmark.name(c)));
            }
            long[] written = produce(kafka, topics);
            System.out.printf(
                    "ingest benchmark: %d clusters x %d nodes, %d rounds of 2%% change: %,d records, %,d bytes%s%n",
                    CLUSTERS,
                    NODES,
                    ROUNDS,
                    written[0],
                    written[1],
                    SHAPELESS ? " (node records without their shape)" : "");

            for (int i = 0; i < WARMUPS; i++) { // both readers alike: the JIT compiles their code before timing
                settle();
                raw(kafka, clusterTopics, written[0], "warm-up");
                settle();
                broker(kafka, topics, written[0], "warm-up");
            }
            double[] raw = new double[MEASURED];
            double[] broker = new double[MEASURED];
            double[] brokerCpu = new double[MEASURED];
            for (int i = 0; i < MEASURED; i++) {
                settle();
                raw[i] = raw(kafka, clusterTopics, written[0], "run " + (i + 1));
                settle();
                double[] run = broker(kafka, topics, written[0], "run " + (i + 1));
                broker[i] = run[0];
                brokerCpu[i] = run[1];
            }
            double rawMean = java.util.Arrays.stream(raw).average().orElseThrow();
            double brokerMean = java.util.Arrays.stream(broker).average().orElseThrow();
            System.out.printf(
                    "ingest (%d warm-up and %d timed runs each): raw KafkaConsumer %,.0f records/s (%s); broker ingest"
                            + " to fleet %,.0f records/s (%s); ratio %.2f%n",
                    WARMUPS, MEASURED, rawMean, each(raw), brokerMean, each(broker), brokerMean / rawMean);
            int processors = Runtime.getRuntime().availableProcessors();
            double cpu = java.util.Arrays.stream(brokerCpu).average().orElseThrow();
            double fastest = cpu / processors; // seconds, were every processor busy with the broker the whole run
            System.out.printf(
                    "ingest bound: a broker run takes %.2f CPU-seconds of the process (mean); on %d processors it cannot"
                            + " take less than %.2f s, %,.0f records/s at best: ratio at most %.2f%n",
                    cpu, processors, fastest, written[0] / fastest, written[0] / fastest / rawMean);
        }
    }

    /** Writes every cluster's history as its agent would; returns records and bytes written. */
    private static long[] produce(LocalKafka kafka, Topics topics) {
        Map<String, Object> config = new HashMap<>(kafka.clientSettings());
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        long records = 0;
        long bytes = 0;
        Random random = new Random(7);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            for (int c = 0; c < CLUSTERS; c++) {
                String cluster = SummaryVolumeBenchmark.name(c);
                String topic = topics.of(cluster, Topics.AgentTopic.CLUSTER);
                ClusterRecord.Stamp stamp = new ClusterRecord.Stamp("inc-" + c, 0);
                int[] used = new int[NODES];
                for (int round = 0; round <= ROUNDS; round++) {
                    List<ClusterRecord> out = new ArrayList<>();
                    for (int i = 0; i < NODES; i++) {
                        boolean change = round > 0 && random.nextInt(50) == 0;
                        if (change) {
                            used[i] = (used[i] + 1 + random.nextInt(8)) % 9;
                        }
                        if (round == 0 || change) {
                            out.add(new ClusterRecord.Node(cluster, stamp, node(c, i, used[i])));
                        }
                    }
                    out.add(new ClusterRecord.Header(
                            cluster, Map.of(), "0.1.0", stamp, round + 1, T0.plusSeconds(2L * round), NODES, 0));
                    for (ClusterRecord r : out) {
                        byte[] value = Wire.encode(r);
                        producer.send(new ProducerRecord<>(topic, r.key().kafkaKey(), value));
                        records++;
                        bytes += value.length;
                    }
                }
            }
            producer.flush();
        }
        return new long[] {records, bytes};
    }

    /** The node as agents write it, or without its shape ({@code ingest.nodes=shapeless}). */
    private static NodeState node(int c, int i, int gpusUsed) {
        NodeState n = SummaryVolumeBenchmark.node(c, i, gpusUsed);
        return SHAPELESS
                ? new NodeState(n.name(), Map.of(), List.of(), true, true, ResourceList.EMPTY, n.allocated())
                : n;
    }

    /** The consumer settings the ingest uses. */
    private static Map<String, Object> consumerConfig(LocalKafka kafka) {
        Map<String, Object> config = new HashMap<>(kafka.clientSettings());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        return config;
    }

    /** Records per second a consumer that only touches each value reads the cluster topics at. */
    private static double raw(LocalKafka kafka, List<String> clusterTopics, long expected, String run) {
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(consumerConfig(kafka), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions =
                    clusterTopics.stream().map(t -> new TopicPartition(t, 0)).toList();
            Cpu before = Cpu.now();
            long start = System.nanoTime();
            long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long read = 0;
            long checksum = 0;
            while (read < expected) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read++;
                    checksum +=
                            r.value() == null ? 0 : r.value().length + r.key().length();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(checksum).isPositive();
            System.out.printf(
                    "raw consumer (%s): %,d records in %.2f s (CPU: reading thread %.2f s; %s)%n",
                    run,
                    read,
                    seconds,
                    (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0) / 1e9,
                    Cpu.now().since(before));
            return read / seconds;
        }
    }

    /**
     * Records per second the broker reads the cluster topics at, until every newest summary is in the fleet, and the
     * process's CPU-seconds meanwhile.
     */
    private static double[] broker(LocalKafka kafka, Topics topics, long records, String run) throws Exception {
        BrokerSettings settings = new BrokerSettings(
                "bench",
                "bench",
                kafka.clientSettings(),
                Duration.ofSeconds(30),
                Duration.ofSeconds(60),
                "cartograph.dev/federate=true",
                Planner.Policy.BIN_PACK,
                false,
                "",
                "",
                Duration.ofSeconds(1));
        Coordinator coordinator = new Coordinator(settings, INTERPRETER, NO_OUTBOX, NO_HUB, Clock.systemUTC());
        Thread coordinating = new Thread(coordinator, "bench-coordinator");
        coordinating.start();
        try (Topology topology = new Topology(kafka.clientSettings(), topics, TopicSettings.SINGLE_BROKER);
                Ingest ingest = new Ingest(
                        kafka.clientSettings(),
                        topics,
                        topology,
                        coordinator,
                        Integer.getInteger(
                                "ingest.decoders",
                                Ingest.decodingThreads(Runtime.getRuntime().availableProcessors())))) {
            Cpu before = Cpu.now();
            long start = System.nanoTime();
            Thread reading = new Thread(ingest, "bench-ingest");
            reading.start();
            double first = -1;
            while (!complete(coordinator.view().fleet())) {
                if (first < 0 && !coordinator.view().fleet().clusters().isEmpty()) {
                    first = (System.nanoTime() - start) / 1e9;
                }
                Thread.sleep(2);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Cpu used = Cpu.now().since(before);
            var cpu = java.lang.management.ManagementFactory.getThreadMXBean();
            long[] decoding = java.util.Arrays.stream(cpu.getThreadInfo(cpu.getAllThreadIds()))
                    .filter(i -> i != null && i.getThreadName().startsWith("ingest-decode"))
                    .mapToLong(i -> cpu.getThreadCpuTime(i.getThreadId()))
                    .toArray();
            System.out.printf(
                    "broker ingest (%s): every cluster's newest summary in the fleet after %.2f s, the first after %.2f s"
                            + " (CPU: polling thread %.2f s, %d decoding threads %.2f s, coordinator thread %.2f s; %s)%n",
                    run,
                    seconds,
                    first,
                    cpu.getThreadCpuTime(reading.getId()) / 1e9,
                    decoding.length,
                    java.util.Arrays.stream(decoding).sum() / 1e9,
                    cpu.getThreadCpuTime(coordinating.getId()) / 1e9,
                    used);
            ingest.close();
            reading.join(10_000);
            return new double[] {records / seconds, used.process() / 1e9};
        } finally {
            coordinator.close();
            coordinating.join(10_000);
        }
    }

    /** Collects what earlier runs left, so that no run pays for another's garbage. */
    private static void settle() throws InterruptedException {
        System.gc();
        Thread.sleep(300);
    }

    private static String each(double[] runs) {
        return java.util.Arrays.stream(runs)
                .mapToObj(r -> String.format("%,.0f", r))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static boolean complete(FleetSnapshot fleet) {
        if (fleet.clusters().size() < CLUSTERS) {
            return false;
        }
        for (ClusterSummary s : fleet.clusters().values()) {
            if (s.sequence() < ROUNDS + 1 || s.nodes().size() != NODES) {
                return false;
            }
        }
        return true;
    }

    /**
     * The process's CPU time, and that of its JIT compiler and GC threads (from {@code /proc/self/task} on Linux,
     * where the JVM's own threads are named; zero elsewhere).
     */
    private record Cpu(long process, long jit, long gc) {
        static Cpu now() {
            long process = ((com.sun.management.OperatingSystemMXBean)
                            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
            long jit = 0;
            long gc = 0;
            Path tasks = Path.of("/proc/self/task");
            if (Files.isDirectory(tasks)) {
                try (var threads = Files.list(tasks)) {
                    for (Path t : threads.toList()) {
                        try {
                            String name = Files.readString(t.resolve("comm")).trim();
                            String stat = Files.readString(t.resolve("stat"));
                            String[] f =
                                    stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                            long nanos = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // 100 Hz ticks
                            if (name.contains("CompilerThre")) {
                                jit += nanos;
                            } else if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                                gc += nanos;
                            }
                        } catch (java.io.IOException | RuntimeException e) {
                            // the thread ended meanwhile
                        }
                    }
                } catch (java.io.IOException e) {
                    // no per-thread figures
                }
            }
            return new Cpu(process, jit, gc);
        }

        /** What was used since {@code before}. */
        Cpu since(Cpu before) {
            return new Cpu(process - before.process, jit - before.jit, gc - before.gc);
        }

        @Override
        public String toString() {
            return String.format(
                    "process %.2f s, of it JIT compiler %.2f s, GC %.2f s", process / 1e9, jit / 1e9, gc / 1e9);
        }
    }

    static final Outbox NO_OUTBOX = new Outbox() {
        @Override
        public void placement(PlacementRecord record) {}

        @Override
        public void forget(String uid) {}

        @Override
        public boolean command(String cluster, Command command) {
            return true;
        }
    };

    static final Hub NO_HUB = dev.cartograph.broker.coordinate.NoHub.INSTANCE;
}
