package dev.cartograph.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.testing.Nodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class FleetTest {
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    static ClusterSummary summary(
            String cluster, String incarnation, long seq, Instant heartbeat, int nodes, List<PlacementReport> placed) {
        List<NodeState> list = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            list.add(Nodes.node(cluster + "-" + i, Nodes.H100, 8, 0));
        }
        return new ClusterSummary(cluster, Map.of(), "0.1.0", incarnation, seq, heartbeat, list, placed);
    }

    @Test
    void staleRecordsAreIgnoredAndARestartedAgentIsTakenFromItsFirstSummaryWhateverItsClock() {
        Fleet fleet = new Fleet();
        assertThat(fleet.accept(summary("a", "i1", 5, T, 1, List.of()))).isEqualTo(Fleet.Outcome.ACCEPTED);
        assertThat(fleet.accept(summary("a", "i1", 4, T.plusSeconds(1), 1, List.of())))
                .isEqualTo(Fleet.Outcome.STALE);
        // restarted on a machine whose clock runs six minutes behind: taken at once (issue 34)
        assertThat(fleet.accept(summary("a", "i2", 1, T.minusSeconds(360), 1, List.of())))
                .isEqualTo(Fleet.Outcome.ACCEPTED);
        assertThat(fleet.snapshot().clusters().get("a").incarnation()).isEqualTo("i2");
        // the old agent, paused and resuming, with a clock ahead: older all the same
        assertThat(fleet.accept(summary("a", "i1", 6, T.plusSeconds(600), 1, List.of())))
                .isEqualTo(Fleet.Outcome.STALE);
        assertThat(fleet.accept(summary("a", "i2", 2, T.minusSeconds(359), 1, List.of())))
                .isEqualTo(Fleet.Outcome.ACCEPTED);
    }

    @Test
    void incarnationsAreRememberedBoundedAndOneForgottenCountsAsNew() {
        Fleet fleet = new Fleet();
        for (int i = 0; i <= Incarnations.REMEMBERED; i++) {
            assertThat(fleet.accept(summary("a", "i" + i, 1, T, 1, List.of()))).isEqualTo(Fleet.Outcome.ACCEPTED);
        }
        assertThat(fleet.accept(summary("a", "i1", 2, T, 1, List.of()))).isEqualTo(Fleet.Outcome.STALE);
        assertThat(fleet.accept(summary("a", "i0", 2, T, 1, List.of())))
                .as("forgotten after %d newer ones", Incarnations.REMEMBERED)
                .isEqualTo(Fleet.Outcome.ACCEPTED);
    }

    @Test
    void aClusterWithoutARecentHeartbeatIsNotReady() {
        Fleet fleet = new Fleet();
        fleet.accept(summary("a", "i1", 1, T, 1, List.of()));
        assertThat(fleet.snapshot()
                        .forPlanning(T.plusSeconds(10), TIMEOUT)
                        .get(0)
                        .ready())
                .isTrue();
        assertThat(fleet.snapshot()
                        .forPlanning(T.plusSeconds(31), TIMEOUT)
                        .get(0)
                        .ready())
                .isFalse();
    }

    @Test
    void oneHundredGangsOnAFleetThatFitsExactlyOneHundredAreEachPlacedOnceAndNeverDoubleBooked() {
        Fleet fleet = new Fleet();
        // 3 clusters, 50 + 30 + 20 nodes of 8 GPUs: exactly 100 gangs of 2 pods x 4 GPUs
        fleet.accept(summary("a", "i", 1, T, 50, List.of()));
        fleet.accept(summary("b", "i", 1, T, 30, List.of()));
        fleet.accept(summary("c", "i", 1, T, 20, List.of()));
        List<PodDemand> gang =
                List.of(new PodDemand("worker", "worker", 2, gpus(4), NodeConstraints.selecting(Map.of())));
        Map<String, Integer> gpusPerNode = new HashMap<>();
        for (int g = 0; g < 100; g++) {
            Decision d =
                    Planner.plan(gang, Map.of(), fleet.snapshot().forPlanning(T, TIMEOUT), Planner.Policy.BIN_PACK);
            assertThat(d).as("gang %d", g).isInstanceOf(Decision.Placed.class);
            Decision.Placed p = (Decision.Placed) d;
            fleet.reserve("p-" + g, 1, p, gang);
            p.assignments().forEach(a -> gpusPerNode.merge(a.node(), 4, Integer::sum));
        }
        assertThat(gpusPerNode.values()).allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(8));
        assertThat(gpusPerNode.values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(800);
        assertThat(Planner.plan(gang, Map.of(), fleet.snapshot().forPlanning(T, TIMEOUT), Planner.Policy.BIN_PACK))
                .isInstanceOf(Decision.Unschedulable.class);
        assertThat(fleet.snapshot().reservations()).hasSize(100);
    }

    @Test
    void reservationsRestoredBeforeAClustersFirstSummaryCountOnItsNodesOnceItComes() {
        Fleet fleet = new Fleet();
        // a new leader restores its placements before any summary of cluster a was read
        fleet.hold(new Reservation("r1", "a", 1, Map.of("a-0", gpus(8))));
        fleet.hold(new Reservation("r2", "a", 1, Map.of("a-1", gpus(4))));
        // a-0 and a-2 free, a-1 full (8 of 8 in use): r1 holds a-0, r2 no longer fits on a-1 and moves to a-2
        fleet.accept(new ClusterSummary(
                "a",
                Map.of(),
                "0.1.0",
                "i",
                1,
                T,
                List.of(
                        Nodes.node("a-0", Nodes.H100, 8, 0),
                        Nodes.node("a-1", Nodes.H100, 8, 8),
                        Nodes.node("a-2", Nodes.H100, 8, 0)),
                List.of()));
        // by hand: 24 GPUs, 8 in use, 12 reserved: 4 free, all on a-2
        List<PodDemand> four = List.of(new PodDemand("w", "w", 1, gpus(4), NodeConstraints.selecting(Map.of())));
        Decision.Placed p =
                (Decision.Placed) Planner.plan(four, Map.of(), fleet.planning(T, TIMEOUT), Planner.Policy.BIN_PACK);
        assertThat(p.assignments()).extracting(Decision.Assignment::node).containsExactly("a-2");
        List<PodDemand> five = List.of(new PodDemand("w", "w", 1, gpus(5), NodeConstraints.selecting(Map.of())));
        assertThat(Planner.plan(five, Map.of(), fleet.planning(T, TIMEOUT), Planner.Policy.BIN_PACK))
                .isInstanceOf(Decision.Unschedulable.class);
    }

    @Test
    void aReservationHoldsUntilTheAgentAccountsForThePlacement() {
        Fleet fleet = new Fleet();
        fleet.accept(summary("a", "i", 1, T, 1, List.of()));
        List<PodDemand> gang = List.of(new PodDemand("w", "w", 1, gpus(8), NodeConstraints.selecting(Map.of())));
        Decision.Placed p = (Decision.Placed)
                Planner.plan(gang, Map.of(), fleet.snapshot().forPlanning(T, TIMEOUT), Planner.Policy.BIN_PACK);
        fleet.reserve("p-1", 3, p, gang);
        // applied but a pod is still unbound: still reserved
        fleet.accept(summary("a", "i", 2, T, 1, List.of(new PlacementReport("p-1", 3, 1, gpus(8)))));
        assertThat(fleet.snapshot().reservations()).containsKey("p-1");
        // an older epoch does not release it either
        fleet.accept(summary("a", "i", 3, T, 1, List.of(new PlacementReport("p-1", 2, 0, ResourceList.EMPTY))));
        assertThat(fleet.snapshot().reservations()).containsKey("p-1");
        fleet.accept(summary("a", "i", 4, T, 1, List.of(new PlacementReport("p-1", 3, 0, ResourceList.EMPTY))));
        assertThat(fleet.snapshot().reservations()).isEmpty();
        ClusterState planning = fleet.snapshot().forPlanning(T, TIMEOUT).get(0);
        assertThat(planning.nodes().get(0).free().gpus()).isEqualTo(8); // the summary above carries no allocation
    }

    @Test
    void aReservedNodeTheMemberFilledWithAnotherGangStillCountsThatReservationInTheCluster() {
        Fleet fleet = new Fleet();
        fleet.accept(summary("a", "i", 1, T, 2, List.of())); // 2 nodes x 8 free GPUs
        List<PodDemand> gang = List.of(new PodDemand("w", "w", 1, gpus(8), NodeConstraints.selecting(Map.of())));
        Decision.Placed g = (Decision.Placed)
                Planner.plan(gang, Map.of(), fleet.snapshot().forPlanning(T, TIMEOUT), Planner.Policy.BIN_PACK);
        fleet.reserve("g", 1, g, gang);
        Decision.Placed h = (Decision.Placed)
                Planner.plan(gang, Map.of(), fleet.snapshot().forPlanning(T, TIMEOUT), Planner.Policy.BIN_PACK);
        fleet.reserve("h", 1, h, gang);
        String gNode = g.assignments().get(0).node();
        String hNode = h.assignments().get(0).node();
        assertThat(gNode).isNotEqualTo(hNode);
        // the member's scheduler bound g's pod on the node the broker booked for h; h's pod does not exist yet
        List<NodeState> nodes = List.of(Nodes.node(hNode, Nodes.H100, 8, 8), Nodes.node(gNode, Nodes.H100, 8, 0));
        fleet.accept(new ClusterSummary(
                "a",
                Map.of(),
                "0.1.0",
                "i",
                2,
                T,
                nodes,
                List.of(new PlacementReport("g", 1, 0, ResourceList.EMPTY), new PlacementReport("h", 1, 1, gpus(8)))));
        assertThat(fleet.snapshot().reservations()).containsOnlyKeys("h");
        // by hand: 16 GPUs, g runs on 8, h still needs 8: nothing is free, whichever node h's pod will get
        List<ClusterState> planning = fleet.snapshot().forPlanning(T, TIMEOUT);
        assertThat(planning.get(0).nodes())
                .allSatisfy(n -> assertThat(n.free().gpus()).isZero());
        assertThat(Planner.plan(gang, Map.of(), planning, Planner.Policy.BIN_PACK))
                .isInstanceOf(Decision.Unschedulable.class);
    }

    @Test
    void aDisplacedReservationThatFitsNoSingleNodeTakesItsGpusFromTheFreestNodes() {
        // by hand: nodes with 4, 3 and 0 free GPUs; 8 GPUs reserved on the full node -> 7 taken, none left
        List<NodeState> nodes = List.of(
                Nodes.node("n0", Nodes.H100, 8, 4),
                Nodes.node("n1", Nodes.H100, 8, 5),
                Nodes.node("n2", Nodes.H100, 8, 8));
        List<NodeState> planned = ReservedCapacity.apply(nodes, Map.of("n2", gpus(8)));
        assertThat(planned).extracting(n -> n.free().gpus()).containsExactly(0L, 0L, 0L);
        // a reservation that fits where it was made stays there
        assertThat(ReservedCapacity.apply(nodes, Map.of("n0", gpus(2))))
                .extracting(n -> n.free().gpus())
                .containsExactly(2L, 3L, 0L);
        // displaced whole onto the node it fits most tightly
        assertThat(ReservedCapacity.apply(nodes, Map.of("n2", gpus(3))))
                .extracting(n -> n.free().gpus())
                .containsExactly(4L, 0L, 0L);
    }

    static ResourceList gpus(int gpus) {
        return Nodes.res("nvidia.com/gpu", String.valueOf(gpus));
    }
}
