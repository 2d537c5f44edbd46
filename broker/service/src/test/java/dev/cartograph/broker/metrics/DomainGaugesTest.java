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
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ViewMetrics' gauges per topology domain (the default levels), by hand: west (ready), zone z1; w1 H100 8 GPUs, 2 used,
 * clique c1 (6 free); w2 H100 8 GPUs, 3 reserved by p1, clique c1 (5 free); w3 no GPUs, zone only.
 */
@Timeout(10)
class DomainGaugesTest {
    static final Instant T = ViewMetricsTest.T;
    static final String H100 = ViewMetricsTest.H100;
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String CLIQUE = "nvidia.com/gpu.clique";

    private final AtomicReference<BrokerView> view = new AtomicReference<>(BrokerView.EMPTY);

    @Test
    void exportsTotalAndFreeGpusPerDomainAndDropsDomainsThatAreGone() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ViewMetrics metrics = new ViewMetrics(registry, state(), Map::of);
        view.set(view(fleet(true)));
        metrics.refresh();

        String text = registry.scrape();
        String zone = "cluster=\"west\",domain=\"z1\",gpu_model=\"" + H100 + "\",level=\"" + ZONE + "\"";
        String clique = "cluster=\"west\",domain=\"c1\",gpu_model=\"" + H100 + "\",level=\"" + CLIQUE + "\"";
        assertThat(text)
                .contains("# TYPE cartograph_domain_free_gpus gauge")
                // 6 + 5 free of 8 + 8, in the zone and in the clique alike
                .contains("cartograph_domain_free_gpus{" + zone + "} 11.0")
                .contains("cartograph_domain_total_gpus{" + zone + "} 16.0")
                .contains("cartograph_domain_free_gpus{" + clique + "} 11.0")
                .contains("cartograph_domain_total_gpus{" + clique + "} 16.0")
                // w3: no GPU model, no GPUs
                .contains("cartograph_domain_total_gpus{cluster=\"west\",domain=\"z1\",gpu_model=\"none\",level=\""
                        + ZONE + "\"} 0.0");
        assertThat(registry.find("cartograph.domain.free.gpus").gauges()).hasSize(3);

        view.set(view(fleet(false))); // the cliques' labels gone
        metrics.refresh();
        assertThat(registry.find("cartograph.domain.free.gpus")
                        .tag("level", CLIQUE)
                        .gauges())
                .isEmpty();
        assertThat(registry.find("cartograph.domain.total.gpus").gauges()).hasSize(2);
    }

    static FleetSnapshot fleet(boolean withCliques) {
        Map<String, String> c1 = withCliques ? Map.of(CLIQUE, "c1") : Map.of();
        List<NodeState> nodes = List.of(
                labelled(ViewMetricsTest.node("w1", H100, 8, 2), c1),
                labelled(ViewMetricsTest.node("w2", H100, 8, 0), c1),
                new NodeState(
                        "w3", Map.of(ZONE, "z1"), List.of(), true, true, ViewMetricsTest.gpus(0), ResourceList.EMPTY));
        return new FleetSnapshot(
                Map.of("west", new ClusterSummary("west", Map.of(), "v", "i", 1, T, nodes, List.of())),
                Map.of("p1", new Reservation("p1", "west", 1, Map.of("w2", ViewMetricsTest.gpus(3)))),
                Map.of("west", T),
                Map.of());
    }

    static NodeState labelled(NodeState n, Map<String, String> more) {
        Map<String, String> labels = new TreeMap<>(n.labels());
        labels.put(ZONE, "z1");
        labels.putAll(more);
        return new NodeState(n.name(), labels, n.taints(), n.ready(), n.schedulable(), n.allocatable(), n.allocated());
    }

    private static BrokerView view(FleetSnapshot fleet) {
        return new BrokerView(fleet, Map.of(), List.of(), Map.of(), Map.of(), true, true, 0, 0, T);
    }

    private BrokerState state() {
        BrokerSettings settings = StandInState.defaultSettings();
        return new StandInState(view::get, () -> settings, T);
    }
}
