package dev.cartograph.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.api.BrokerState;
import dev.cartograph.broker.api.StandInState;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.FleetSnapshot;
import dev.cartograph.fleet.Reservation;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker's gauges from hand-built views. The fleet is FleetReportTest's, counted by hand there and again here:
 * east (ready) e1 H100 8 GPUs 2 used, e2 H100 8 of 8 used, e3 H100 8 cordoned, e4 A100 8; reservation p1 takes 4 on
 * e1 and 3 on e4; lost (heartbeat 10 min old) l1 H100 8.
 */
@Timeout(10)
class ViewMetricsTest {
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String A100 = "NVIDIA-A100-SXM4-80GB";

    private final AtomicReference<BrokerView> view = new AtomicReference<>(BrokerView.EMPTY);
    private final Map<String, Long> lag = new TreeMap<>();

    @Test
    void exportsTheFleetRowsPerClusterAndModelAsCartoFleetShowsThem() {
        MeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ViewMetrics metrics = new ViewMetrics(registry, state(), () -> lag);
        view.set(view(fleet(true), Map.of(), List.of()));
        metrics.refresh();

        // A100 on east: 8 total, 0 allocated, 3 reserved, 5 free, largest block 5, one node
        assertThat(gpus(registry, "east", A100, "total")).isEqualTo(8);
        assertThat(gpus(registry, "east", A100, "allocated")).isEqualTo(0);
        assertThat(gpus(registry, "east", A100, "reserved")).isEqualTo(3);
        assertThat(gpus(registry, "east", A100, "free")).isEqualTo(5);
        assertThat(value(registry, "cartograph.cluster.largest.free.block", "cluster", "east", "gpu_model", A100))
                .isEqualTo(5);
        assertThat(value(registry, "cartograph.cluster.nodes", "cluster", "east", "gpu_model", A100))
                .isEqualTo(1);
        // H100 on east: 24 total, 2 + 8 = 10 allocated, 4 reserved, free 8-2-4 = 2 on e1 only (e2 full, e3 cordoned)
        assertThat(gpus(registry, "east", H100, "total")).isEqualTo(24);
        assertThat(gpus(registry, "east", H100, "allocated")).isEqualTo(10);
        assertThat(gpus(registry, "east", H100, "reserved")).isEqualTo(4);
        assertThat(gpus(registry, "east", H100, "free")).isEqualTo(2);
        assertThat(value(registry, "cartograph.cluster.nodes", "cluster", "east", "gpu_model", H100))
                .isEqualTo(3);
        // lost: not ready, so nothing free on its 8 GPUs
        assertThat(gpus(registry, "lost", H100, "total")).isEqualTo(8);
        assertThat(gpus(registry, "lost", H100, "free")).isEqualTo(0);
        assertThat(value(registry, "cartograph.cluster.ready", "cluster", "east"))
                .isEqualTo(1);
        assertThat(value(registry, "cartograph.cluster.ready", "cluster", "lost"))
                .isEqualTo(0);
        // 3 models-by-cluster rows x 4 states
        assertThat(registry.find("cartograph.cluster.gpus").gauges()).hasSize(12);
    }

    @Test
    void rowsOfAClusterThatIsGoneDisappearAndNewOnesAppear() {
        MeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ViewMetrics metrics = new ViewMetrics(registry, state(), () -> lag);
        view.set(view(fleet(true), Map.of(), List.of()));
        lag.put("cartograph.cluster.lost", 7L);
        metrics.refresh();
        assertThat(registry.find("cartograph.cluster.ready")
                        .tag("cluster", "lost")
                        .gauge())
                .isNotNull();

        view.set(view(fleet(false), Map.of(), List.of()));
        lag.clear();
        lag.put("cartograph.placements", 2L);
        metrics.refresh();
        assertThat(registry.find("cartograph.cluster.ready")
                        .tag("cluster", "lost")
                        .gauge())
                .isNull();
        assertThat(registry.find("cartograph.cluster.gpus")
                        .tag("cluster", "lost")
                        .gauges())
                .isEmpty();
        assertThat(registry.find("cartograph.cluster.gpus").gauges()).hasSize(8); // east's two models x 4
        assertThat(registry.find("cartograph.ingest.lag").gauges())
                .singleElement()
                .satisfies(g -> {
                    assertThat(g.getId().getTag("topic")).isEqualTo("cartograph.placements");
                    assertThat(g.value()).isEqualTo(2);
                });
    }

    @Test
    void queueAndNamespaceGpusComeFromThePlacements() {
        MeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ViewMetrics metrics = new ViewMetrics(registry, state(), () -> lag);
        // ml: a placed gang holding 4 + 4 GPUs and an applied one holding 2; team-b: a queued gang (holds nothing),
        // submitted 90 s ago, and a failed one (holds nothing)
        Map<String, PlacementRecord> placements = Map.of(
                "a", record("a", "ml", State.PLACED, Map.of("e1", gpus(4), "e2", gpus(4)), T.minusSeconds(30)),
                "b", record("b", "ml", State.APPLIED, Map.of("e4", gpus(2)), T.minusSeconds(600)),
                "c", record("c", "team-b", State.QUEUED, Map.of(), T.minusSeconds(90)),
                "d", record("d", "team-b", State.FAILED, Map.of(), T.minusSeconds(900)));
        view.set(view(fleet(true), placements, List.of("c")));
        metrics.refresh();

        assertThat(value(registry, "cartograph.namespace.gpus", "namespace", "ml"))
                .isEqualTo(10);
        assertThat(registry.find("cartograph.namespace.gpus")
                        .tag("namespace", "team-b")
                        .gauge())
                .isNull();
        assertThat(value(registry, "cartograph.queue.gangs", "queue", "default"))
                .isEqualTo(1);
        assertThat(value(registry, "cartograph.queue.oldest.wait", "queue", "default"))
                .isEqualTo(90);
        assertThat(registry.find("cartograph.broker.leader").gauge().value()).isEqualTo(1);

        view.set(view(fleet(true), Map.of(), List.of()));
        metrics.refresh();
        assertThat(value(registry, "cartograph.queue.gangs", "queue", "default"))
                .isEqualTo(0);
        assertThat(value(registry, "cartograph.queue.oldest.wait", "queue", "default"))
                .isEqualTo(0);
    }

    @Test
    void prometheusNamesFollowItsConventions() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ViewMetrics metrics = new ViewMetrics(registry, state(), () -> Map.of("cartograph.placements", 0L));
        view.set(view(fleet(true), Map.of(), List.of()));
        metrics.refresh();
        String text = registry.scrape();
        assertThat(text)
                .contains("# TYPE cartograph_cluster_gpus gauge")
                .contains("cartograph_cluster_gpus{cluster=\"east\",gpu_model=\"" + A100 + "\",state=\"free\"} 5.0")
                .contains("cartograph_cluster_largest_free_block{cluster=\"east\",gpu_model=\"" + H100 + "\"} 2.0")
                .contains("cartograph_cluster_nodes{cluster=\"lost\",gpu_model=\"" + H100 + "\"} 1.0")
                .contains("cartograph_cluster_ready{cluster=\"lost\"} 0.0")
                .contains("cartograph_queue_gangs{queue=\"default\"} 0.0")
                .contains("cartograph_queue_oldest_wait_seconds{queue=\"default\"} 0.0")
                .contains("cartograph_ingest_lag_records{topic=\"cartograph.placements\"} 0.0")
                .contains("cartograph_broker_leader 1.0");
    }

    private static double gpus(MeterRegistry registry, String cluster, String model, String state) {
        return value(registry, "cartograph.cluster.gpus", "cluster", cluster, "gpu_model", model, "state", state);
    }

    private static double value(MeterRegistry registry, String name, String... tags) {
        Gauge g = registry.find(name).tags(tags).gauge();
        assertThat(g).as(name + " " + String.join(",", tags)).isNotNull();
        return g.value();
    }

    private BrokerState state() {
        BrokerSettings settings = StandInState.defaultSettings();
        return new StandInState(view::get, () -> settings, T);
    }

    private static BrokerView view(FleetSnapshot fleet, Map<String, PlacementRecord> placements, List<String> queue) {
        return new BrokerView(fleet, placements, queue, Map.of(), Map.of(), true, true, 0, 0, T);
    }

    /** The fleet described above; {@code withLost} false leaves the lost cluster out. */
    static FleetSnapshot fleet(boolean withLost) {
        NodeState e3 = node("e3", H100, 8, 0);
        NodeState cordoned =
                new NodeState(e3.name(), e3.labels(), e3.taints(), true, false, e3.allocatable(), e3.allocated());
        Map<String, ClusterSummary> clusters = new TreeMap<>();
        Map<String, Instant> received = new TreeMap<>();
        clusters.put(
                "east",
                new ClusterSummary(
                        "east",
                        Map.of(),
                        "v",
                        "i",
                        1,
                        T,
                        List.of(node("e1", H100, 8, 2), node("e2", H100, 8, 8), cordoned, node("e4", A100, 8, 0)),
                        List.of()));
        received.put("east", T);
        if (withLost) {
            clusters.put(
                    "lost",
                    new ClusterSummary(
                            "lost",
                            Map.of(),
                            "v",
                            "i",
                            1,
                            T.minusSeconds(600),
                            List.of(node("l1", H100, 8, 0)),
                            List.of()));
            received.put("lost", T.minusSeconds(600));
        }
        Map<String, Reservation> reservations =
                Map.of("p1", new Reservation("p1", "east", 1, Map.of("e1", gpus(4), "e4", gpus(3))));
        return new FleetSnapshot(clusters, reservations, received, Map.of());
    }

    static NodeState node(String name, String product, int gpus, int used) {
        ResourceList allocatable = new ResourceList(new TreeMap<>(Map.of(
                "cpu",
                BigDecimal.valueOf(64),
                "nvidia.com/gpu",
                BigDecimal.valueOf(gpus),
                "pods",
                BigDecimal.valueOf(110))));
        return new NodeState(
                name,
                Map.of(NodeState.GPU_PRODUCT, product),
                List.of(),
                true,
                true,
                allocatable,
                used == 0 ? ResourceList.EMPTY : gpus(used));
    }

    static ResourceList gpus(long n) {
        return new ResourceList(new TreeMap<>(Map.of("nvidia.com/gpu", BigDecimal.valueOf(n))));
    }

    static PlacementRecord record(
            String uid, String namespace, State state, Map<String, ResourceList> reserved, Instant submitted) {
        return new PlacementRecord(
                uid,
                new PlacementRecord.Target(namespace, "batch/v1", "Job", uid),
                state == State.QUEUED || state == State.FAILED ? Optional.empty() : Optional.of("east"),
                1,
                state,
                "",
                reserved,
                0,
                submitted,
                T);
    }
}
