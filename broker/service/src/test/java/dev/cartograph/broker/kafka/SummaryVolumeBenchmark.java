package dev.cartograph.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Wire;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Summary volume: bytes per second on the cluster topics and the broker's CPU per second to take them in
 * (decode, assembly, {@code Fleet.accept}: thread CPU time of the reading thread), with 1 % of every cluster's
 * nodes changing per second and agents publishing every 2 s (the default {@code publish-interval}), before (one
 * whole-cluster record per round, {@link WholeSummaryFormat}) and after (a record per changed node, then the
 * header). Agents are simulated in-process (no Kafka); their work is not counted. At 1,000 × 5,000 the broker
 * holds 100 of the clusters live and the fleet 900 more of one node each (so each accept copies a 1,000-cluster
 * fleet), and the figures are the 100's times 10: clusters are alike and independent. Bytes are keys and values
 * uncompressed (producers compress batches, so the topic holds less).
 *
 * <p>Run: {@code mvn -B -q -ntp -pl broker/service -am test -Dtest=SummaryVolumeBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class SummaryVolumeBenchmark {
    static final int INTERVAL_SECONDS = 2;
    static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    static final Topics TOPICS = new Topics("cartograph");
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    @Test
    void bytesAndBrokerCpuPerSecondBeforeAndAfter() {
        run(100, 1000, 100, 3, 15);
        run(1000, 5000, 100, 3, 10);
    }

    private static void run(int clusters, int nodes, int live, int roundsBefore, int roundsAfter) {
        Figures before = new Fleetwide(clusters, nodes, live, false).rounds(roundsBefore);
        before.print("before", clusters, nodes, live);
        Figures after = new Fleetwide(clusters, nodes, live, true).rounds(roundsAfter);
        after.print("after ", clusters, nodes, live);
        System.out.printf(
                "summary volume %d x %d: %.0fx fewer bytes, %.1fx less broker CPU%n",
                clusters, nodes, before.bytesPerSecond() / after.bytesPerSecond(), before.cpu() / after.cpu());
    }

    /** Per second over the fleet: bytes on the topics, broker CPU seconds, records. */
    record Figures(double bytesPerSecond, double cpu, double recordsPerSecond, long heapPerNode) {
        void print(String when, int clusters, int nodes, int live) {
            System.out.printf(
                    "summary volume %s: %d clusters x %d nodes, 1%% of nodes/s: %,.0f bytes/s on the topic, %,.0f"
                            + " records/s, broker CPU %.3f s/s (decode + assembly + Fleet.accept; %d clusters"
                            + " simulated, x%d)%s%n",
                    when,
                    clusters,
                    nodes,
                    bytesPerSecond,
                    recordsPerSecond,
                    cpu,
                    live,
                    clusters / live,
                    heapPerNode < 0 ? "" : String.format(", broker heap %,d bytes per node held", heapPerNode));
        }
    }

    /** The simulated agents and the broker's reading side for one run. */
    static final class Fleetwide {
        final int clusters;
        final int nodes;
        final int live;
        final boolean deltas;
        final Random random = new Random(42);
        final Fleet fleet = new Fleet();
        final Records records = new Records(TOPICS);
        final List<ClusterAssembly> assemblies = new ArrayList<>();
        final int[][] used;
        long sequence;
        long bytes;
        long recordCount;
        long cpuNanos;

        Fleetwide(int clusters, int nodes, int live, boolean deltas) {
            this.clusters = clusters;
            this.nodes = nodes;
            this.live = live;
            this.deltas = deltas;
            this.used = new int[live][nodes];
            for (int c = live; c < clusters; c++) { // the rest of the fleet, one node each
                fleet.accept(new ClusterSummary(
                        name(c), Map.of(), "0.1.0", "inc", 1, T0, List.of(node(c, 0, 0)), List.of()));
            }
            for (int c = 0; c < live; c++) {
                assemblies.add(new ClusterAssembly(name(c)));
                for (int i = 0; i < nodes; i++) {
                    used[c][i] = random.nextInt(9);
                }
            }
        }

        /** The first full publication (not counted), then {@code rounds} rounds of change. */
        Figures rounds(int rounds) {
            long heapBefore = heap();
            round(true);
            long heapPerNode = deltas ? (heap() - heapBefore) / ((long) live * nodes) : -1;
            bytes = 0;
            recordCount = 0;
            cpuNanos = 0;
            for (int r = 0; r < rounds; r++) {
                round(false);
            }
            double seconds = rounds * INTERVAL_SECONDS;
            double scale = (double) clusters / live;
            assertThat(fleet.snapshot().clusters()).hasSize(clusters);
            return new Figures(
                    bytes * scale / seconds,
                    cpuNanos / 1e9 * scale / seconds,
                    recordCount * scale / seconds,
                    heapPerNode);
        }

        private static long heap() {
            System.gc();
            System.gc();
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        }

        private void round(boolean first) {
            sequence++;
            Instant heartbeat = T0.plusSeconds(sequence * INTERVAL_SECONDS);
            for (int c = 0; c < live; c++) {
                TreeSet<Integer> changed = new TreeSet<>();
                if (!first) {
                    for (int k = 0; k < nodes / 100 * INTERVAL_SECONDS; k++) { // 1 % per second, conflated per round
                        int i = random.nextInt(nodes);
                        used[c][i] = (used[c][i] + 1 + random.nextInt(8)) % 9;
                        changed.add(i);
                    }
                }
                if (deltas) {
                    publishDeltas(c, first, changed, heartbeat);
                } else {
                    publishWhole(c, heartbeat);
                }
            }
        }

        /** What the agent's ClusterDeltas writes for this round (ClusterDeltasTest pins that), then the broker. */
        private void publishDeltas(int c, boolean first, TreeSet<Integer> changed, Instant heartbeat) {
            String cluster = name(c);
            ClusterRecord.Stamp stamp = new ClusterRecord.Stamp("inc", 0);
            List<String> keys = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                if (first || changed.contains(i)) {
                    ClusterRecord.Node r = new ClusterRecord.Node(cluster, stamp, node(c, i, used[c][i]));
                    keys.add(r.key().kafkaKey());
                    values.add(Wire.encode(r));
                }
            }
            ClusterRecord.Header h =
                    new ClusterRecord.Header(cluster, Map.of(), "0.1.0", stamp, sequence, heartbeat, nodes, 0);
            keys.add(h.key().kafkaKey());
            values.add(Wire.encode(h));
            for (int k = 0; k < keys.size(); k++) {
                bytes += keys.get(k).getBytes(StandardCharsets.UTF_8).length + values.get(k).length;
            }
            recordCount += keys.size();
            String topic = TOPICS.of(cluster, Topics.AgentTopic.CLUSTER);
            ClusterAssembly assembly = assemblies.get(c);
            long t0 = CPU.getCurrentThreadCpuTime();
            for (int k = 0; k < keys.size(); k++) {
                Records.Read read = records.read(topic, keys.get(k), values.get(k));
                assembly.apply(((Records.Read.Part) read).record());
            }
            ClusterAssembly.Summary s = assembly.take().orElseThrow();
            fleet.accept(s.summary(), heartbeat, s.changedNodes().orElse(null));
            cpuNanos += CPU.getCurrentThreadCpuTime() - t0;
        }

        private void publishWhole(int c, Instant heartbeat) {
            List<NodeState> all = new ArrayList<>(nodes);
            for (int i = 0; i < nodes; i++) {
                all.add(node(c, i, used[c][i]));
            }
            byte[] value = WholeSummaryFormat.encode(
                    new ClusterSummary(name(c), Map.of(), "0.1.0", "inc", sequence, heartbeat, all, List.of()));
            bytes += name(c).length() + value.length;
            recordCount++;
            long t0 = CPU.getCurrentThreadCpuTime();
            fleet.accept(WholeSummaryFormat.decode(value), heartbeat);
            cpuNanos += CPU.getCurrentThreadCpuTime() - t0;
        }
    }

    static String name(int c) {
        return "gpu-" + c;
    }

    static final List<Taint> TAINTS = List.of(new Taint("nvidia.com/gpu", "present", "NoSchedule"));
    static final ResourceList ALLOCATABLE =
            res("cpu", "192", "memory", "2048Gi", "nvidia.com/gpu", "8", "pods", "110", "ephemeral-storage", "3500Gi");

    /** An 8-GPU H100 node in one of 4 zones with {@code gpusUsed} GPUs (and CPU, memory, pods with them) taken. */
    static NodeState node(int c, int i, int gpusUsed) {
        String name = String.format("ip-10-%d-%d-%d.ec2.internal", c % 256, i / 256, i % 256);
        return new NodeState(
                name,
                Map.of(
                        "kubernetes.io/hostname",
                        name,
                        NodeState.GPU_PRODUCT,
                        "NVIDIA-H100-80GB-HBM3",
                        "nvidia.com/gpu.count",
                        "8",
                        "nvidia.com/gpu.memory",
                        "81559",
                        "topology.kubernetes.io/zone",
                        "us-east-1" + "abcd".charAt(i % 4),
                        "node.kubernetes.io/instance-type",
                        "p5.48xlarge"),
                TAINTS,
                true,
                true,
                ALLOCATABLE,
                gpusUsed == 0
                        ? ResourceList.EMPTY
                        : res(
                                "cpu",
                                gpusUsed * 20 + ".5",
                                "memory",
                                gpusUsed * 200 + "Gi",
                                "nvidia.com/gpu",
                                String.valueOf(gpusUsed),
                                "pods",
                                String.valueOf(gpusUsed + 3)));
    }

    static ResourceList res(String... pairs) {
        TreeMap<String, BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], Quantity.parse(pairs[i + 1]).orElseThrow());
        }
        return new ResourceList(m);
    }
}
