package dev.cartograph.fleet;

import static dev.cartograph.testing.Nodes.A100;
import static dev.cartograph.testing.Nodes.H100;
import static dev.cartograph.testing.Nodes.node;
import static dev.cartograph.testing.Nodes.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetReportTest {
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");

    @Test
    void totalsPerModelCountReservationsAndOnlyReadySchedulableNodesAsFree() {
        Fleet fleet = new Fleet();
        NodeState cordoned = node("e3", H100, 8, 0);
        cordoned = new NodeState(
                cordoned.name(),
                cordoned.labels(),
                cordoned.taints(),
                true,
                false,
                cordoned.allocatable(),
                cordoned.allocated());
        fleet.accept(new ClusterSummary(
                "east",
                Map.of(),
                "v",
                "i",
                1,
                T,
                List.of(node("e1", H100, 8, 2), node("e2", H100, 8, 8), cordoned, node("e4", A100, 8, 0)),
                List.of()));
        fleet.accept(new ClusterSummary(
                "lost", Map.of(), "v", "i", 1, T.minusSeconds(600), List.of(node("l1", H100, 8, 0)), List.of()));
        fleet.hold(new Reservation(
                "p1", "east", 1, Map.of("e1", res("nvidia.com/gpu", "4"), "e4", res("nvidia.com/gpu", "3"))));

        FleetReport r = FleetReport.of(fleet.snapshot(), T, Duration.ofSeconds(30), Map.of("east", 2));
        FleetReport.ClusterReport east = r.clusters().get(0);
        assertThat(east.name()).isEqualTo("east");
        assertThat(east.ready()).isTrue();
        assertThat(east.pending()).isEqualTo(2);
        // hand counts: A100 e4: 8 total, 0 used, 3 reserved, 5 free; H100 e1..e3: 24 total, 10 used, 4 reserved,
        // free e1 8-2-4=2, e2 0, e3 cordoned 0 -> 2, largest block 2
        assertThat(east.models())
                .containsExactly(
                        new FleetReport.ModelReport(A100, 1, 8, 0, 3, 5, 5),
                        new FleetReport.ModelReport(H100, 3, 24, 10, 4, 2, 2));
        FleetReport.ClusterReport lost = r.clusters().get(1);
        assertThat(lost.ready()).isFalse();
        assertThat(lost.models()).containsExactly(new FleetReport.ModelReport(H100, 1, 8, 0, 0, 0, 0));
        assertThat(lost.total()).isEqualTo(8);
        assertThat(lost.free()).isZero();
    }
}
