package dev.cartograph.broker.api;

import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.FleetSnapshot;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the dashboard asks of the broker at 1,000 clusters × 1,000 8-GPU nodes (each in an 18-node clique, 0–8 GPUs
 * used): the fleet summary it polls every 2 s, against {@code GET /api/v1/fleet} (every node), and one cluster's node
 * map. Prints the median time of 11 calls on a warm JVM and the body's size.
 *
 * <p>Run: {@code mvn -B -q -ntp -pl broker/service -am test -Dtest=DashboardBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 */
class DashboardBenchmark {
    static final Instant T = Instant.parse("2026-12-06T12:00:00Z");

    static ResourceList res(String... kv) {
        TreeMap<String, BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]).orElseThrow());
        }
        return new ResourceList(m);
    }

    static FleetSnapshot fleet(int clusters, int nodes) {
        Random random = new Random(7);
        ResourceList allocatable = res("nvidia.com/gpu", "8", "cpu", "192", "memory", "2Ti", "pods", "110");
        ResourceList[] used = new ResourceList[9];
        for (int g = 0; g <= 8; g++) {
            used[g] = g == 0 ? ResourceList.EMPTY : res("nvidia.com/gpu", String.valueOf(g));
        }
        Fleet fleet = new Fleet();
        for (int c = 0; c < clusters; c++) {
            List<NodeState> list = new ArrayList<>(nodes);
            for (int n = 0; n < nodes; n++) {
                list.add(new NodeState(
                        "c" + c + "-n" + n,
                        Map.of(
                                NodeState.GPU_PRODUCT,
                                "NVIDIA-H100-80GB-HBM3",
                                "nvidia.com/gpu.clique",
                                "nvl-" + n / 18),
                        List.of(),
                        true,
                        true,
                        allocatable,
                        used[random.nextInt(9)]));
            }
            fleet.accept(new ClusterSummary("c" + c, Map.of(), "0", "i", 1, T, list, List.of()), T);
        }
        return fleet.snapshot();
    }

    @Test
    void theDashboardsCallsAtAThousandClusters() {
        FleetSnapshot snapshot = fleet(1000, 1000);
        BrokerView view = new BrokerView(snapshot, Map.of(), List.of(), Map.of(), Map.of(), true, true, 0, 0, T);
        StandInState state = new StandInState(() -> view, StandInState::defaultSettings, T);
        NodesController nodes = new NodesController(state);
        // a new controller each time: the summary is made, not taken from the one-second cache every dashboard shares
        measure(
                "GET /api/v1/fleet/summary",
                () -> new NodesController(state).summary().body());
        measure("GET /api/v1/clusters/c7/nodes", () -> nodes.nodes("c7").body());
        measure(
                "GET /api/v1/fleet (every node)",
                () -> Views.fleet(view, T, java.time.Duration.ofSeconds(30)).toString());
    }

    private static void measure(String what, java.util.function.Supplier<String> call) {
        long[] nanos = new long[11];
        int bytes = 0;
        for (int i = -3; i < nanos.length; i++) { // three warm-up calls
            long start = System.nanoTime();
            bytes = call.get().length();
            if (i >= 0) {
                nanos[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(nanos);
        System.out.printf("%s at 1000 x 1000: median %.1f ms, %,d bytes%n", what, nanos[5] / 1e6, bytes);
    }
}
