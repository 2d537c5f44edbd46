package dev.cartograph.placement;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.testing.Nodes;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (its name keeps it out of the test runs): placement decisions on fleets of
 * {@code clusters × nodes} (8-GPU nodes, H100, A100 or L40S by cluster, 0–8 GPUs already used) with
 * mixed gangs (1–16 workers of 1, 2, 4 or 8 GPUs, half of them pinned to a GPU model, plus a
 * launcher), each placed gang reserved before the next decision, as the broker's single writer does.
 * Run: {@code mvn -B -q -ntp -pl broker/core -am test -Dtest=PlacementBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dsizes=10x100,100x1000,1000x1000 -Ddecisions=1000}). {@code -Dtopology=required|preferred}: every 18 nodes
 * of a cluster are one NVLink clique (an NVL72 rack of 4-GPU trays, here of 8-GPU nodes) and every gang asks for one.
 */
class PlacementBenchmark {
    static final String SIZES = System.getProperty("sizes", "10x100,100x1000,1000x1000");
    static final int DECISIONS = Integer.getInteger("decisions", 1000);
    static final int WARM_UP = Integer.getInteger("warmup", 200);
    static final String[] PRODUCTS = {Nodes.H100, Nodes.A100, "NVIDIA-L40S"};
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(1);
    static final String TOPOLOGY = System.getProperty("topology", "");
    static final int CLIQUE_NODES = 18;

    @Test
    void mixedGangsAtFleetScale() {
        for (String size : SIZES.split(",")) {
            String[] cn = size.split("x");
            run(Integer.parseInt(cn[0]), Integer.parseInt(cn[1]));
        }
    }

    private static void run(int clusters, int nodes) {
        Random random = new Random(7);
        Fleet fleet = fleet(clusters, nodes, random);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int total = WARM_UP + DECISIONS;
        long[] nanos = new long[total];
        long cpu = 0;
        int placed = 0;
        for (int i = 0; i < total; i++) {
            List<PodDemand> gang = gang(random);
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            Decision d = Planner.plan(
                    gang, Map.of(), fleet.planning(T, TIMEOUT), Planner.Policy.BIN_PACK, GpuBudget.NONE, topology());
            if (d instanceof Decision.Placed p) {
                fleet.reserve("p" + i, 1, p, gang);
                placed++;
            }
            nanos[i] = System.nanoTime() - start;
            if (i >= WARM_UP) {
                cpu += threads.getCurrentThreadCpuTime() - cpuStart;
            }
        }
        long[] warm = Arrays.copyOfRange(nanos, WARM_UP, total);
        Arrays.sort(warm);
        double seconds = Arrays.stream(warm).sum() / 1e9;
        System.out.printf(
                "%d clusters x %d nodes, %d decisions after %d warm-up (%d of all placed, reserved as they go)%s%n",
                clusters,
                nodes,
                DECISIONS,
                WARM_UP,
                placed,
                TOPOLOGY.isEmpty() ? "" : ", each gang " + topology() + " (cliques of " + CLIQUE_NODES + " nodes)");
        System.out.printf(
                "decisions/s %.1f, p50 %.2f ms, p99 %.2f ms (thread CPU %.3f ms per decision)%n",
                warm.length / seconds,
                warm[warm.length / 2] / 1e6,
                warm[(int) (warm.length * 0.99)] / 1e6,
                cpu / 1e6 / DECISIONS);
    }

    /** What every gang asks of the topology ({@code -Dtopology}). */
    static GangTopology topology() {
        return switch (TOPOLOGY) {
            case "required" -> GangTopology.required(TopologyPlannerTest.CLIQUE);
            case "preferred" -> GangTopology.preferred(TopologyPlannerTest.CLIQUE);
            default -> GangTopology.NONE;
        };
    }

    /** A gang from the benchmark's mix. */
    static List<PodDemand> gang(Random random) {
        int pods = 1 + random.nextInt(16);
        int gpus = new int[] {1, 2, 4, 8}[random.nextInt(4)];
        Map<String, String> selector =
                random.nextBoolean() ? Map.of(NodeState.GPU_PRODUCT, PRODUCTS[random.nextInt(3)]) : Map.of();
        return List.of(
                new PodDemand(
                        "worker",
                        "worker",
                        pods,
                        Nodes.res("nvidia.com/gpu", String.valueOf(gpus), "cpu", "8"),
                        NodeConstraints.selecting(selector)),
                new PodDemand("launcher", "launcher", 1, Nodes.res("cpu", "2"), NodeConstraints.selecting(Map.of())));
    }

    /** {@code clusters × nodes} 8-GPU nodes, one GPU model per cluster, 0–8 GPUs used on each. */
    static Fleet fleet(int clusters, int nodes, Random random) {
        ResourceList[] used = new ResourceList[9];
        for (int g = 0; g <= 8; g++) {
            used[g] = g == 0 ? ResourceList.EMPTY : Nodes.res("nvidia.com/gpu", String.valueOf(g));
        }
        Fleet fleet = new Fleet();
        for (int c = 0; c < clusters; c++) {
            String product = PRODUCTS[c % PRODUCTS.length];
            NodeState model = Nodes.node("model", product, 8, 0);
            List<NodeState> list = new ArrayList<>(nodes);
            for (int n = 0; n < nodes; n++) {
                Map<String, String> labels = TOPOLOGY.isEmpty()
                        ? model.labels()
                        : Map.of(NodeState.GPU_PRODUCT, product, TopologyPlannerTest.CLIQUE, "nvl-" + n / CLIQUE_NODES);
                list.add(new NodeState(
                        "c" + c + "-n" + n,
                        labels,
                        model.taints(),
                        true,
                        true,
                        model.allocatable(),
                        used[random.nextInt(9)]));
            }
            fleet.accept(new ClusterSummary("c" + c, Map.of(), "0", "i", 1, T, list, List.of()), T);
        }
        return fleet;
    }

    @Test
    void hugeGangs() {
        Fleet fleet = fleet(100, 1000, new Random(7));
        for (int round = 0; round < 3; round++) {
            decide(fleet, "a gang of 100,000 single-GPU pods", 100_000, Nodes.res("nvidia.com/gpu", "1", "cpu", "1"));
            decide(fleet, "a Deployment of 1,000,000 replicas (0.1 CPU each)", 1_000_000, Nodes.res("cpu", "100m"));
            decide(fleet, "a gang of 100,000 pods of 0.5 CPU", 100_000, Nodes.res("cpu", "500m"));
        }
    }

    private static void decide(Fleet fleet, String what, int pods, ResourceList perPod) {
        List<PodDemand> gang = List.of(new PodDemand("w", "w", pods, perPod, NodeConstraints.NONE));
        long start = System.nanoTime();
        Decision d = Planner.plan(gang, Map.of(), fleet.planning(T, TIMEOUT), Planner.Policy.BIN_PACK);
        long took = System.nanoTime() - start;
        String outcome = d instanceof Decision.Placed p
                ? "placed on " + p.cluster() + " ("
                        + p.assignments().stream()
                                .map(Decision.Assignment::node)
                                .distinct()
                                .count() + " nodes)"
                : "refused: " + d.clusters().get(0).reason();
        System.out.printf("%s on 100 x 1000: decided in %.0f ms, %s%n", what, took / 1e6, outcome);
    }
}
