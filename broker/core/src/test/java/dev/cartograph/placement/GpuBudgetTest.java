package dev.cartograph.placement;

import static dev.cartograph.placement.PlannerTest.A100;
import static dev.cartograph.placement.PlannerTest.H100;
import static dev.cartograph.placement.PlannerTest.cluster;
import static dev.cartograph.placement.PlannerTest.node;
import static dev.cartograph.placement.PlannerTest.pods;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.ClusterState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A queue's GPU budget steers the plan per model, on fleets counted by hand. */
@Timeout(60)
class GpuBudgetTest {
    // east: 2 H100 nodes, 16 free; west: 2 A100 nodes, 16 free
    static final ClusterState EAST = cluster("east", node("e1", H100, 8, 0), node("e2", H100, 8, 0));
    static final ClusterState WEST = cluster("west", node("w1", A100, 8, 0), node("w2", A100, 8, 0));

    static GpuBudget budget(String model, long gpus) {
        return new GpuBudget(Map.of(model, new GpuBudget.Limit(gpus, "queue team-a: nominal 8 − 0 in use")));
    }

    @Test
    void aGangWithoutAModelSelectorGoesToTheModelItsBudgetAllows() {
        // 2 pods x 8 GPUs, any model: 16 GPUs. Bin packing alone picks east (name order on equal scores);
        // with only 8 H100 left in the budget, east would take 16 H100: west (A100, no limit) is chosen.
        List<PodDemand> gang = List.of(pods(2, 8, Map.of()));
        assertThat(Planner.plan(gang, Map.of(), List.of(EAST, WEST), Planner.Policy.BIN_PACK)
                        .chosen())
                .contains("east");

        Decision d = Planner.plan(
                gang, Map.of(), PlanningFleet.of(List.of(EAST, WEST)), Planner.Policy.BIN_PACK, budget(H100, 8));

        assertThat(d.chosen()).contains("west");
        assertThat(d.clusters())
                .filteredOn(v -> v.cluster().equals("east"))
                .singleElement()
                .satisfies(v -> {
                    assertThat(v.fits()).isFalse();
                    assertThat(v.reason())
                            .isEqualTo("over quota: would take 16 " + H100 + " GPUs here, 8 allowed"
                                    + " (queue team-a: nominal 8 − 0 in use)");
                });
    }

    @Test
    void aBudgetExactlyTheGangsSizeStillPlacesIt() {
        List<PodDemand> gang = List.of(pods(2, 8, Map.of()));
        Decision d = Planner.plan(
                gang, Map.of(), PlanningFleet.of(List.of(EAST)), Planner.Policy.BIN_PACK, budget(H100, 16));
        assertThat(d.chosen()).contains("east");
    }

    @Test
    void noClusterWithinBudgetIsUnschedulableWithEveryClustersReason() {
        GpuBudget both = new GpuBudget(Map.of(
                H100, new GpuBudget.Limit(8, "queue team-a: nominal 8 − 0 in use"),
                A100, new GpuBudget.Limit(0, "queue team-a: nominal 0, borrowing limit 0")));
        Decision d = Planner.plan(
                List.of(pods(2, 8, Map.of())),
                Map.of(),
                PlanningFleet.of(List.of(EAST, WEST)),
                Planner.Policy.BIN_PACK,
                both);

        assertThat(d).isInstanceOf(Decision.Unschedulable.class);
        assertThat(d.clusters())
                .extracting(Decision.Verdict::reason)
                .containsExactly(
                        "over quota: would take 16 " + H100
                                + " GPUs here, 8 allowed (queue team-a: nominal 8 − 0 in use)",
                        "over quota: would take 16 " + A100
                                + " GPUs here, 0 allowed (queue team-a: nominal 0, borrowing limit 0)");
    }

    @Test
    void podsWithoutGpusAreNotCountedAndAnUnlimitedBudgetChangesNothing() {
        PodDemand cpuOnly = new PodDemand(
                "launcher",
                "launcher",
                1,
                PlannerTest.res("cpu", "2"),
                dev.cartograph.interpreter.scheduling.NodeConstraints.selecting(Map.of()));
        List<PodDemand> gang = List.of(cpuOnly, pods(1, 8, Map.of()));
        Decision limited =
                Planner.plan(gang, Map.of(), PlanningFleet.of(List.of(EAST)), Planner.Policy.BIN_PACK, budget(H100, 8));
        assertThat(limited.chosen()).contains("east");

        Decision free = Planner.plan(gang, Map.of(), PlanningFleet.of(List.of(EAST, WEST)), Planner.Policy.SPREAD);
        Decision none = Planner.plan(
                gang, Map.of(), PlanningFleet.of(List.of(EAST, WEST)), Planner.Policy.SPREAD, GpuBudget.NONE);
        assertThat(none).isEqualTo(free);
    }

    @Test
    void gpusAreCountedPerModelOfTheNodesTheyLandOn() {
        // one cluster with both models: 1 x 8 on an H100 node and 1 x 8 on an A100 node
        ClusterState mixed = cluster("mixed", node("h", H100, 8, 0), node("a", A100, 8, 0));
        List<PodDemand> gang = List.of(pods(2, 8, Map.of()));
        PlanningFleet fleet = PlanningFleet.of(List.of(mixed));

        assertThat(Planner.plan(gang, Map.of(), fleet, Planner.Policy.BIN_PACK, budget(H100, 8))
                        .chosen())
                .contains("mixed");
        assertThat(Planner.plan(gang, Map.of(), fleet, Planner.Policy.BIN_PACK, budget(A100, 7))
                        .clusters())
                .singleElement()
                .satisfies(v -> assertThat(v.reason())
                        .startsWith("over quota: would take 8 " + A100 + " GPUs here, 7 allowed"));
    }
}
