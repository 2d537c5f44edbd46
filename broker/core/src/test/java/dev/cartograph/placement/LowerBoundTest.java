package dev.cartograph.placement;

import static dev.cartograph.placement.PlannerTest.A100;
import static dev.cartograph.placement.PlannerTest.H100;
import static dev.cartograph.placement.PlannerTest.node;
import static dev.cartograph.placement.PlannerTest.pods;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.NodeState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bin packing's lower bound, counted by hand: the fewest part-used nodes a gang can leave on a cluster (times a
 * million; the score adds the GPUs left on the nodes it touches). It lets the planner skip clusters that cannot beat
 * the best one so far; it must never be more than a real placement scores ({@link PlannerEquivalenceTest} checks that
 * on random fleets against the planner that scans every node).
 */
@Timeout(60)
class LowerBoundTest {
    static long bound(List<PodDemand> gang, NodeState... nodes) {
        return GangFit.lowerBound(Need.of(gang), ClusterCapacity.of(List.of(nodes)), Planner.Policy.BIN_PACK);
    }

    @Test
    void oneGpuOnWholeNodesLeavesOneOfThemPartUsed() {
        // every node whole: one GPU goes to one of them, which is left with 7 of 8 free
        assertThat(bound(List.of(pods(1, 1, Map.of())), node("a", H100, 8, 0), node("b", H100, 8, 0)))
                .isEqualTo(1_000_000);
        // eight GPUs can fill a whole node: none need be left part-used
        assertThat(bound(List.of(pods(1, 8, Map.of())), node("a", H100, 8, 0), node("b", H100, 8, 0)))
                .isZero();
        assertThat(bound(List.of(pods(8, 1, Map.of())), node("a", H100, 8, 0))).isZero();
    }

    @Test
    void aPartUsedNodeStaysPartUsedUnlessTheGangCanFillWhatIsFreeOnIt() {
        // a: 7 of 8 free (part-used); b whole. One GPU cannot fill a's 7: a stays part-used; going to a, it leaves no
        // other node part-used, so the bound is one node
        assertThat(bound(List.of(pods(1, 1, Map.of())), node("a", H100, 8, 1), node("b", H100, 8, 0)))
                .isEqualTo(1_000_000);
        // seven pods of one GPU can fill a: none left
        assertThat(bound(List.of(pods(7, 1, Map.of())), node("a", H100, 8, 1), node("b", H100, 8, 0)))
                .isZero();
        // one pod of 7 GPUs too
        assertThat(bound(List.of(pods(1, 7, Map.of())), node("a", H100, 8, 1), node("b", H100, 8, 0)))
                .isZero();
    }

    @Test
    void theGangFillsThePartUsedNodesWithTheFewestFreeFirstAtMostOnePerPod() {
        // part-used: a (1 free), b (2 free), c (6 free). Three GPUs in two pods fill a and b at best: c stays
        NodeState[] nodes = {node("a", A100, 8, 7), node("b", A100, 8, 6), node("c", A100, 8, 2)};
        assertThat(bound(List.of(pods(1, 1, Map.of()), pods(1, 2, Map.of())), nodes))
                .isEqualTo(1_000_000);
        // one pod of three GPUs fills at most one of them: two stay
        assertThat(bound(List.of(pods(1, 3, Map.of())), nodes)).isEqualTo(2_000_000);
        // nine GPUs in six pods could fill all three exactly (a: 1; b: 1 + 1; c: 4 + 1 + 1): none need stay
        assertThat(bound(List.of(pods(1, 4, Map.of()), pods(5, 1, Map.of())), nodes))
                .isZero();
    }

    @Test
    void gpusThatCannotAllGoToPartUsedNodesAndAreFewerThanAWholeNodeLeaveOneMore() {
        // a: 1 free of 8; b: whole node of 8. Three GPUs: at most 1 goes to a (filling it), at least 2 to b, which is
        // left part-used; or all three to b. Either way one part-used node at least
        assertThat(bound(List.of(pods(3, 1, Map.of())), node("a", H100, 8, 7), node("b", H100, 8, 0)))
                .isEqualTo(1_000_000);
        // nine GPUs are more than the smallest whole node: they might fill it, so nothing is added (a filled by one)
        assertThat(bound(List.of(pods(9, 1, Map.of())), node("a", H100, 8, 7), node("b", H100, 8, 0)))
                .isZero();
    }
}
