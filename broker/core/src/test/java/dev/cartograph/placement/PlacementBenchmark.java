package dev.cartograph.placement;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.testing.Nodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (its name keeps it out of the test runs): placement decisions on a fleet
 * of 100 clusters × 1,000 nodes with mixed gangs, each placed gang reserved before the next.
 * Run: {@code mvn -B -q -ntp -pl broker/core -am test -Dtest=PlacementBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 */
class PlacementBenchmark {
    static final int CLUSTERS = Integer.getInteger("clusters", 100);
    static final int NODES = Integer.getInteger("nodes", 1000);
    static final int DECISIONS = Integer.getInteger("decisions", 300);

    @Test
    void mixedGangsOnAHundredThousandNodes() {
        Random random = new Random(7);
        String[] products = {Nodes.H100, Nodes.A100, "NVIDIA-L40S"};
        Fleet fleet = new Fleet();
        Instant t = Instant.parse("2026-12-02T12:00:00Z");
        for (int c = 0; c < CLUSTERS; c++) {
            List<NodeState> nodes = new ArrayList<>();
            String product = products[c % products.length];
            for (int n = 0; n < NODES; n++) {
                nodes.add(Nodes.node("c" + c + "-n" + n, product, 8, random.nextInt(9)));
            }
            fleet.accept(new ClusterSummary("c" + c, Map.of(), "0", "i", 1, t, nodes, List.of()));
        }
        long[] nanos = new long[DECISIONS];
        long viewNanos = 0;
        int placed = 0;
        for (int i = 0; i < DECISIONS; i++) {
            int pods = 1 + random.nextInt(16);
            int gpus = new int[] {1, 2, 4, 8}[random.nextInt(4)];
            Map<String, String> selector =
                    random.nextBoolean() ? Map.of(NodeState.GPU_PRODUCT, products[random.nextInt(3)]) : Map.of();
            List<PodDemand> gang = List.of(
                    new PodDemand(
                            "worker",
                            "worker",
                            pods,
                            Nodes.res("nvidia.com/gpu", String.valueOf(gpus), "cpu", "8"),
                            NodeConstraints.selecting(selector)),
                    new PodDemand(
                            "launcher", "launcher", 1, Nodes.res("cpu", "2"), NodeConstraints.selecting(Map.of())));
            long start = System.nanoTime();
            PlanningFleet view = fleet.planning(t, Duration.ofMinutes(1));
            viewNanos += System.nanoTime() - start;
            Decision d = Planner.plan(gang, Map.of(), view, Planner.Policy.BIN_PACK);
            if (d instanceof Decision.Placed p) {
                fleet.reserve("p" + i, 1, p, gang);
                placed++;
            }
            nanos[i] = System.nanoTime() - start;
        }
        long[] warm = Arrays.copyOfRange(nanos, Math.min(20, DECISIONS - 1), DECISIONS);
        Arrays.sort(warm);
        double total = Arrays.stream(warm).sum() / 1e9;
        System.out.printf(
                "%d clusters x %d nodes, %d decisions (%d placed, reserved as they go)%n",
                CLUSTERS, NODES, DECISIONS, placed);
        System.out.printf("building planning views: %.1f ms per decision on average%n", viewNanos / 1e6 / DECISIONS);
        System.out.printf(
                "decisions/s %.1f, p50 %.1f ms, p99 %.1f ms (after %d warm-up decisions; includes building the planning view)%n",
                warm.length / total,
                warm[warm.length / 2] / 1e6,
                warm[(int) (warm.length * 0.99)] / 1e6,
                DECISIONS - warm.length);
    }
}
