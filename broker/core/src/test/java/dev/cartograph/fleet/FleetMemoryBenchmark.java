package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.protocol.ClusterAssembly;
import dev.cartograph.protocol.ClusterDeltas;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.NodeParts;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.Wire;
import dev.cartograph.testing.Nodes;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test: the broker's fleet state for 100 clusters × 1,000 nodes, as it holds it —
 * summaries assembled from the records agents publish (decoded as the broker's reader does, node
 * parts shared), and the planner's capacity index — measured as
 * live heap after GC, per node. Nodes carry the labels a GPU node has in practice (GPU feature
 * discovery, topology, instance type: 22 labels), a taint on a tenth of them, and differing
 * allocations.
 * Run: {@code mvn -B -q -ntp -pl broker/core -am test -Dtest=FleetMemoryBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 */
class FleetMemoryBenchmark {
    static final int CLUSTERS = Integer.getInteger("clusters", 100);
    static final int NODES = Integer.getInteger("nodes", 1000);

    @Test
    void liveHeapPerFleetNode() throws Exception {
        Random random = new Random(11);
        List<List<ClusterRecord>> published = new ArrayList<>();
        List<byte[]> records = new ArrayList<>();
        for (int c = 0; c < CLUSTERS; c++) {
            List<ClusterRecord> first = new ClusterDeltas().next(cluster(c, random)); // an agent's first publication
            published.add(first);
            first.forEach(r -> records.add(Wire.encode(r)));
        }
        long before = liveHeap();
        Fleet fleet = new Fleet();
        Instant t = Instant.parse("2026-12-03T12:00:00Z");
        NodeParts parts = new NodeParts(); // as the broker's reader shares node parts
        int at = 0;
        for (int c = 0; c < CLUSTERS; c++) {
            ClusterAssembly assembly = new ClusterAssembly("c" + c);
            for (ClusterRecord r : published.get(c)) {
                String key = r.key().kafkaKey();
                assembly.apply(((Decoded.Ok<ClusterRecord>) Wire.decodeCluster(key, records.get(at++), parts)).value());
            }
            fleet.accept(assembly.take().orElseThrow().summary(), t);
        }
        long after = liveHeap(); // the records and the agents' side are alive before and after: not counted
        long nodes = (long) CLUSTERS * NODES;
        System.out.printf(
                "%d clusters x %d nodes: broker fleet state %.1f MiB live heap, %.0f bytes per node%n",
                CLUSTERS, NODES, (after - before) / 1048576.0, (after - before) / (double) nodes);
        if (records.isEmpty() || parts.hashCode() == 0 || published.isEmpty()) {
            throw new AssertionError("nothing measured");
        }
        if (fleet.planning(t, java.time.Duration.ofMinutes(1)).clusters().size() != CLUSTERS) {
            throw new AssertionError("fleet lost clusters"); // keeps the fleet reachable until measured
        }
    }

    private static ClusterSummary cluster(int c, Random random) {
        String[] products = {Nodes.H100, Nodes.A100, "NVIDIA-L40S"};
        String product = products[c % products.length];
        List<NodeState> nodes = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            String name = "gpu-node-" + c + "-" + n;
            Map<String, String> labels = new HashMap<>();
            labels.put("kubernetes.io/hostname", name);
            labels.put("kubernetes.io/arch", "amd64");
            labels.put("kubernetes.io/os", "linux");
            labels.put("beta.kubernetes.io/arch", "amd64");
            labels.put("beta.kubernetes.io/os", "linux");
            labels.put("node.kubernetes.io/instance-type", "p5.48xlarge");
            labels.put("topology.kubernetes.io/region", "us-east-1");
            labels.put("topology.kubernetes.io/zone", "us-east-1" + (char) ('a' + n % 4));
            labels.put("nvidia.com/gpu.product", product);
            labels.put("nvidia.com/gpu.count", "8");
            labels.put("nvidia.com/gpu.memory", "81559");
            labels.put("nvidia.com/gpu.family", "hopper");
            labels.put("nvidia.com/gpu.machine", "p5.48xlarge");
            labels.put("nvidia.com/gpu.present", "true");
            labels.put("nvidia.com/gpu.deploy.driver", "true");
            labels.put("nvidia.com/gpu.deploy.device-plugin", "true");
            labels.put("nvidia.com/gpu.deploy.gpu-feature-discovery", "true");
            labels.put("nvidia.com/cuda.driver.major", "550");
            labels.put("nvidia.com/cuda.driver.minor", "90");
            labels.put("nvidia.com/mig.capable", "true");
            labels.put("feature.node.kubernetes.io/network-sriov.capable", "true");
            labels.put("node-role.kubernetes.io/worker", "");
            List<Taint> taints = n % 10 == 0 ? List.of(new Taint("nvidia.com/gpu", "", Taint.NO_SCHEDULE)) : List.of();
            int gpus = random.nextInt(9);
            ResourceList allocated = Nodes.res(
                    "cpu",
                    (2 + gpus * 8) + "",
                    "memory",
                    (4 + gpus * 64) + "Gi",
                    "nvidia.com/gpu",
                    gpus + "",
                    "pods",
                    (5 + gpus) + "");
            nodes.add(new NodeState(
                    name,
                    labels,
                    taints,
                    true,
                    true,
                    Nodes.res(
                            "cpu",
                            "191450m",
                            "memory",
                            "2063731Mi",
                            "nvidia.com/gpu",
                            "8",
                            "pods",
                            "110",
                            "ephemeral-storage",
                            "3500Gi"),
                    allocated));
        }
        return new ClusterSummary(
                "c" + c, Map.of("region", "us-east-1"), "0.1.0", "i", 1, Instant.EPOCH, nodes, List.of());
    }

    private static long liveHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
