package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Benchmark, not a test (its name keeps it out of the test runs): submissions through the real
 * {@link Coordinator} on its own thread, with an in-memory outbox and hub, and simulated agents that
 * answer every apply and, every 100 ms, report the placed gangs running (their GPUs in use, their
 * reservations accounted for; every cluster's heartbeat every 5 s). Each gang is a federated Job of
 * one pod × 1 GPU. First as fast as the coordinator takes them (throughput), then at a paced rate
 * (latency from posting the hub object to the placement record written).
 * Run: {@code mvn -B -ntp -o -q verify -pl broker/service -am -DskipITs -Dtest=CoordinatorBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Dclusters=100 -Dnodes=1000} (add {@code -Dmetrics=true} to observe every
 * decision with the service's Prometheus metrics). With {@code -Doutbox=kafka} the outbox is the service's
 * transactional {@code KafkaOutbox} on a real Kafka (in-process KRaft, one node, acks=all): a submission counts as placed
 * when its record and its apply have committed.
 */
@Timeout(3600)
class CoordinatorBenchmark {
    static final int WARM_UP = Integer.getInteger("warmup", 500);
    static final int SATURATED = Integer.getInteger("submissions", 4000);
    static final int PACED = Integer.getInteger("paced", 3000);
    static final int RATE = Integer.getInteger("rate", 1000);

    private final int total = WARM_UP + SATURATED + PACED;
    private final long[] submitted = new long[total];
    private final long[] placed = new long[total];
    private final AtomicInteger placedCount = new AtomicInteger();
    private final ConcurrentLinkedQueue<PlacementRecord> toAccount = new ConcurrentLinkedQueue<>();

    private final Outbox outbox = new Outbox() {
        @Override
        public void placement(PlacementRecord record) {
            durable(record, System.nanoTime());
        }

        @Override
        public void forget(String uid) {}

        @Override
        public boolean command(String cluster, Command command) {
            return true;
        }
    };
    private final Hub hub = NoHub.INSTANCE;

    /** The record is durable (with the commands of its batch) at {@code nanos}. */
    private void durable(PlacementRecord record, long nanos) {
        if (record.state() == PlacementRecord.State.PLACED) {
            placed[Integer.parseInt(record.uid().substring(1))] = nanos;
            placedCount.incrementAndGet();
            toAccount.add(record);
        }
    }

    /** The service's transactional outbox on a real Kafka; what it commits is timed when the commit returns. */
    private static final class TimedKafkaOutbox implements Outbox, AutoCloseable {
        private final dev.cartograph.kafka.testing.TestKafka kafka;
        private final dev.cartograph.broker.kafka.Topology topology;
        private final dev.cartograph.broker.kafka.KafkaOutbox outbox;
        private final java.util.function.ObjLongConsumer<PlacementRecord> durable;
        long batches;
        long writes;

        TimedKafkaOutbox(java.util.function.ObjLongConsumer<PlacementRecord> durable) throws Exception {
            this.durable = durable;
            kafka = dev.cartograph.kafka.testing.TestKafka.start(
                    java.nio.file.Files.createTempDirectory("coordinator-benchmark-kafka"));
            Map<String, String> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
            dev.cartograph.protocol.Topics topics = new dev.cartograph.protocol.Topics("bench");
            topology = new dev.cartograph.broker.kafka.Topology(
                    client, topics, dev.cartograph.protocol.TopicSettings.SINGLE_BROKER);
            topology.ensurePlacements();
            outbox = new dev.cartograph.broker.kafka.KafkaOutbox(client, topics, topology::ensureCommandTopicOrLog);
            System.out.println("outbox: KafkaOutbox on " + kafka.description());
        }

        @Override
        public void activate(long term) throws Exception {
            outbox.activate(term);
        }

        @Override
        public void write(List<Write> batch) throws Exception {
            outbox.write(batch);
            long now = System.nanoTime();
            batches++;
            writes += batch.size();
            for (Write w : batch) {
                if (w instanceof Write.Placement p) {
                    durable.accept(p.record(), now);
                }
            }
        }

        @Override
        public void placement(PlacementRecord record) {
            throw new UnsupportedOperationException("the coordinator writes batches");
        }

        @Override
        public void forget(String uid) {
            throw new UnsupportedOperationException("the coordinator writes batches");
        }

        @Override
        public boolean command(String cluster, Command command) {
            throw new UnsupportedOperationException("the coordinator writes batches");
        }

        @Override
        public void close() throws Exception {
            outbox.close();
            topology.close();
            kafka.close();
        }
    }

    @Test
    void submissionsPlacedPerSecondThroughTheRealCoordinator() throws Exception {
        int clusters = SyntheticFleet.CLUSTERS;
        long capacity = (long) clusters * SyntheticFleet.NODES * 8;
        if (capacity < total) {
            System.out.printf(
                    "warning: %d submissions of 1 GPU on a fleet of %d GPUs: the last ones wait%n", total, capacity);
        }
        BrokerSettings settings = new BrokerSettings(
                "bench",
                "t",
                Map.of(),
                Duration.ofSeconds(30),
                Duration.ofSeconds(60),
                "cartograph.dev/federate=true",
                Planner.Policy.BIN_PACK,
                false,
                "",
                "",
                Duration.ofSeconds(1));
        Clock clock = Clock.systemUTC();
        // -Dmetrics=true: every attempt observed as the service does (a Prometheus registry), to compare with without
        io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry =
                new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                        io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        DecisionObserver observer = Boolean.getBoolean("metrics")
                ? new dev.cartograph.broker.metrics.DecisionMetrics(registry)
                : DecisionObserver.NONE;
        System.out.println("decision metrics: " + (observer == DecisionObserver.NONE ? "off" : "on"));
        TimedKafkaOutbox kafka =
                "kafka".equals(System.getProperty("outbox", "memory")) ? new TimedKafkaOutbox(this::durable) : null;
        if (kafka == null) {
            System.out.println("outbox: in memory");
        }
        Coordinator coordinator = new Coordinator(
                settings,
                Interpreter.of(Catalog.load().definitions()),
                kafka == null ? outbox : kafka,
                hub,
                clock,
                PriorityClasses.NONE,
                HubDependencies.NONE,
                observer);
        Thread loop = new Thread(coordinator, "coordinator");
        loop.start();
        Agents agents = new Agents(coordinator, clusters, clock);
        Thread agentLoop = new Thread(agents, "agents");
        try {
            coordinator.post(new Input.CaughtUp());
            agents.reportAll();
            while (coordinator.view().fleet().clusters().size() < clusters) {
                Thread.sleep(10);
            }
            agentLoop.start();
            Instant created = clock.instant();
            List<JsonNode> jobs = new ArrayList<>(total);
            for (int i = 0; i < total; i++) {
                jobs.add(SyntheticFleet.job("j" + i, "u" + i, created.plusMillis(i), 1, 1, ""));
            }
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            submit(coordinator, jobs, 0, WARM_UP, 0);
            long cpu0 = threads.getThreadCpuTime(loop.getId());
            long start = System.nanoTime();
            submit(coordinator, jobs, WARM_UP, WARM_UP + SATURATED, 0);
            long saturatedEnd = last(WARM_UP, WARM_UP + SATURATED);
            long cpu1 = threads.getThreadCpuTime(loop.getId());
            submit(coordinator, jobs, WARM_UP + SATURATED, total, RATE);
            long cpu2 = threads.getThreadCpuTime(loop.getId());
            System.out.printf(
                    "%d clusters x %d nodes; %d submissions of 1 pod x 1 GPU after %d to warm up%n",
                    clusters, SyntheticFleet.NODES, SATURATED + PACED, WARM_UP);
            report("as fast as taken", SATURATED, saturatedEnd - start, WARM_UP, WARM_UP + SATURATED);
            report(
                    "paced at " + RATE + "/s",
                    PACED,
                    last(WARM_UP + SATURATED, total) - submitted[WARM_UP + SATURATED],
                    WARM_UP + SATURATED,
                    total);
            System.out.printf(
                    "coordinator thread CPU per submission (the machine is shared): %.2f ms as fast as taken, %.2f ms"
                            + " paced (every input counted: agents' results and summaries too)%n",
                    (cpu1 - cpu0) / 1e6 / SATURATED, (cpu2 - cpu1) / 1e6 / PACED);
            System.out.printf(
                    "queue %d, placements %d, open reservations %d at the end%n",
                    coordinator.view().queue().size(),
                    coordinator.view().placements().size(),
                    coordinator.view().fleet().reservations().size());
            if (observer instanceof dev.cartograph.broker.metrics.DecisionMetrics) {
                System.out.println("decisions observed: "
                        + registry.find("cartograph.placement.decisions").counters().stream()
                                .mapToDouble(c -> c.count())
                                .sum());
            }
            if (kafka != null) {
                System.out.printf(
                        "outbox: %d transactions, %.1f writes each (records, tombstones and commands)%n",
                        kafka.batches, (double) kafka.writes / Math.max(1, kafka.batches));
            }
        } finally {
            agents.stop = true;
            coordinator.close();
            loop.join(5_000);
            agentLoop.join(5_000);
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    /** Posts jobs [from, to): all at once ({@code rate} 0) or {@code rate} a second; returns when all are placed. */
    private void submit(Coordinator coordinator, List<JsonNode> jobs, int from, int to, int rate) throws Exception {
        long begin = System.nanoTime();
        for (int i = from; i < to; i++) {
            if (rate > 0) {
                long due = begin + (i - from) * 1_000_000_000L / rate;
                while (System.nanoTime() < due) {
                    LockSupport.parkNanos(due - System.nanoTime());
                }
            }
            submitted[i] = System.nanoTime();
            coordinator.post(new Input.HubChanged(jobs.get(i)));
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        while (placedCount.get() < to && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private long last(int from, int to) {
        return Arrays.stream(placed, from, to).max().orElse(0);
    }

    private void report(String how, int n, long nanos, int from, int to) {
        long[] latency = new long[to - from];
        for (int i = from; i < to; i++) {
            latency[i - from] = placed[i] == 0 ? Long.MAX_VALUE : placed[i] - submitted[i];
        }
        Arrays.sort(latency);
        System.out.printf(
                "%s: submissions/s %.0f placed, submit-to-placed p50 %.1f ms, p99 %.1f ms (n=%d)%n",
                how,
                n / (nanos / 1e9),
                latency[latency.length / 2] / 1e6,
                latency[(int) (latency.length * 0.99)] / 1e6,
                n);
    }

    /** The member clusters' agents: apply what they are sent, and report it running in their next summary. */
    private final class Agents implements Runnable {
        private final Coordinator coordinator;
        private final Clock clock;
        private final int[][] used;
        private final List<List<PlacementReport>> running = new ArrayList<>();
        private final long[] sequence;
        private long lastHeartbeat = System.nanoTime();
        volatile boolean stop;

        Agents(Coordinator coordinator, int clusters, Clock clock) {
            this.coordinator = coordinator;
            this.clock = clock;
            this.used = new int[clusters][SyntheticFleet.NODES];
            this.sequence = new long[clusters];
            for (int c = 0; c < clusters; c++) {
                running.add(new ArrayList<>());
            }
        }

        @Override
        public void run() {
            while (!stop) {
                LockSupport.parkNanos(100_000_000L);
                boolean[] changed = new boolean[used.length];
                for (PlacementRecord r = toAccount.poll(); r != null; r = toAccount.poll()) {
                    int c = Integer.parseInt(r.cluster().orElseThrow().substring(1));
                    r.reserved()
                            .forEach((node, amount) ->
                                    used[c][Integer.parseInt(node.substring(node.lastIndexOf('n') + 1))] +=
                                            (int) amount.gpus());
                    running.get(c).add(new PlacementReport(r.uid(), r.epoch(), 0, ResourceList.EMPTY));
                    coordinator.post(new Input.Result(new CommandResult(
                            r.cluster().get(),
                            r.uid(),
                            r.epoch(),
                            "apply",
                            CommandResult.Outcome.APPLIED,
                            "",
                            clock.instant())));
                    changed[c] = true;
                }
                boolean heartbeat = System.nanoTime() - lastHeartbeat > 5_000_000_000L;
                for (int c = 0; c < used.length; c++) {
                    if (changed[c] || heartbeat) {
                        report(c);
                    }
                }
                if (heartbeat) {
                    lastHeartbeat = System.nanoTime();
                }
            }
        }

        void reportAll() {
            for (int c = 0; c < used.length; c++) {
                report(c);
            }
        }

        private void report(int c) {
            List<NodeState> nodes = new ArrayList<>(SyntheticFleet.NODES);
            for (int n = 0; n < SyntheticFleet.NODES; n++) {
                nodes.add(SyntheticFleet.node("c" + c + "-n" + n, SyntheticFleet.product(c), used[c][n]));
            }
            coordinator.post(new Input.Cluster(
                    SyntheticFleet.summary(c, ++sequence[c], clock.instant(), nodes, List.copyOf(running.get(c)))));
            running.get(c).clear();
        }
    }
}
