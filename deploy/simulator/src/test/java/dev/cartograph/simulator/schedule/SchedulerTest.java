package dev.cartograph.simulator.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.interpreter.scheduling.NodeSelectorTerm;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.interpreter.scheduling.Toleration;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SchedulerTest {
    private static final Taint GPU_TAINT = new Taint("nvidia.com/gpu", "present", Taint.NO_SCHEDULE);

    private static ResourceList gpus(long n) {
        return new ResourceList(Map.of(ResourceList.GPU, BigDecimal.valueOf(n)));
    }

    private static NodeInfo node(String name, long gpus) {
        return new NodeInfo(name, Map.of("pool", "h100"), gpus(gpus), List.of(), true, false);
    }

    private static PendingPod pod(String name, long gpus) {
        return new PendingPod(new PodRef("ml", name), gpus(gpus), NodeConstraints.NONE);
    }

    private static Request gang(String label, PendingPod... pods) {
        return new Request(label, List.of(List.of(pods)), List.of());
    }

    @Test
    void bindsAGangThatFitsWithoutOvercommittingAnyNode() {
        List<ScheduleResult> d = Scheduler.schedule(
                List.of(node("a", 8), node("b", 8)),
                Map.of(),
                List.of(gang("job", pod("m", 4), pod("w0", 4), pod("w1", 4), pod("w2", 4))));

        assertThat(d).allMatch(x -> x instanceof ScheduleResult.Bind);
        assertThat(d.stream().filter(x -> ((ScheduleResult.Bind) x).node().equals("a")))
                .hasSize(2);
        assertThat(d.stream().filter(x -> ((ScheduleResult.Bind) x).node().equals("b")))
                .hasSize(2);
    }

    @Test
    void bindsNoPodOfAGangThatDoesNotWhollyFitAndSaysWhyWithNumbers() {
        // 4 + 4 GPUs used on a: 4 free on a, 8 on b; a gang of 3 × 4 needs 12
        Map<String, ResourceList> used = Map.of("a", gpus(4));
        List<ScheduleResult> d = Scheduler.schedule(
                List.of(node("a", 8), node("b", 8)),
                used,
                List.of(gang("job", pod("p0", 4), pod("p1", 4), pod("p2", 4), pod("p3", 4))));

        assertThat(d).hasSize(4).allMatch(x -> x instanceof ScheduleResult.Unschedulable);
        assertThat(((ScheduleResult.Unschedulable) d.get(0)).message())
                .contains("needs all 4 pending pods bound at once; 3 fit before p3 did not")
                .contains(
                        "0/2 nodes are available: 2 node(s) had too little free nvidia.com/gpu (needs 4, most free 0)");
    }

    @Test
    void aGangThatDoesNotFitLeavesItsCapacityToTheNextWorkload() {
        List<ScheduleResult> d = Scheduler.schedule(
                List.of(node("a", 8)),
                Map.of(),
                List.of(gang("big", pod("b0", 8), pod("b1", 8)), gang("small", pod("s0", 8))));

        assertThat(d)
                .filteredOn(x -> x.pod().name().startsWith("b"))
                .allMatch(x -> x instanceof ScheduleResult.Unschedulable);
        assertThat(d)
                .filteredOn(x -> x.pod().name().equals("s0"))
                .singleElement()
                .isEqualTo(new ScheduleResult.Bind(new PodRef("ml", "s0"), "a"));
    }

    @Test
    void looseWorkersWaitForTheirWorkloadsGang() {
        Request elastic = new Request("elastic", List.of(List.of(pod("m", 8), pod("w0", 8))), List.of(pod("w1", 1)));

        List<ScheduleResult> d = Scheduler.schedule(List.of(node("a", 8)), Map.of(), List.of(elastic));

        assertThat(d).hasSize(3).allMatch(x -> x instanceof ScheduleResult.Unschedulable);
        assertThat(((ScheduleResult.Unschedulable) d.get(2)).message()).contains("waiting for the gang of elastic");
    }

    @Test
    void skipsNodesThatAreNotReadyUnschedulableOffSelectorOrTaintedAgainstThePod() {
        List<NodeInfo> nodes = List.of(
                new NodeInfo("down", Map.of(), gpus(8), List.of(), false, false),
                new NodeInfo("cordoned", Map.of(), gpus(8), List.of(), true, true),
                new NodeInfo("other-pool", Map.of("pool", "a100"), gpus(8), List.of(), true, false),
                new NodeInfo("tainted", Map.of("pool", "h100"), gpus(8), List.of(GPU_TAINT), true, false));
        PendingPod picky =
                new PendingPod(new PodRef("ml", "p"), gpus(1), NodeConstraints.selecting(Map.of("pool", "h100")));

        ScheduleResult d = Scheduler.schedule(nodes, Map.of(), List.of(new Request("w", List.of(), List.of(picky))))
                .get(0);

        assertThat(((ScheduleResult.Unschedulable) d).message())
                .isEqualTo(
                        "0/4 nodes are available: 1 node(s) were not ready; "
                                + "1 node(s) were unschedulable; 1 node(s) didn't match the pod's node selector; 1 node(s) had untolerated taints");
    }

    /** The simulator's own node filter ignored required node affinity; a real kube-scheduler honours it. */
    @Test
    void requiredNodeAffinityKeepsThePodOffNodesItDoesNotMatch() {
        NodeSelectorTerm h100 = new NodeSelectorTerm(
                List.of(new NodeSelectorTerm.Requirement("pool", "In", List.of("h100"))), List.of());
        PendingPod affine =
                new PendingPod(new PodRef("ml", "p"), gpus(1), new NodeConstraints(Map.of(), List.of(h100), List.of()));
        List<NodeInfo> nodes = List.of(
                new NodeInfo("a", Map.of("pool", "a100"), gpus(8), List.of(), true, false),
                new NodeInfo("b", Map.of("pool", "a100"), gpus(8), List.of(), true, false));

        ScheduleResult d = Scheduler.schedule(nodes, Map.of(), List.of(new Request("w", List.of(), List.of(affine))))
                .get(0);

        assertThat(((ScheduleResult.Unschedulable) d).message())
                .isEqualTo("0/2 nodes are available: 2 node(s) didn't match the pod's required node affinity");
        assertThat(Scheduler.schedule(
                                List.of(node("h", 8)), Map.of(), List.of(new Request("w", List.of(), List.of(affine))))
                        .get(0))
                .isEqualTo(new ScheduleResult.Bind(new PodRef("ml", "p"), "h"));
    }

    @Test
    void aTolerationLetsThePodOntoATaintedNode() {
        NodeInfo tainted = new NodeInfo("t", Map.of(), gpus(8), List.of(GPU_TAINT), true, false);
        PendingPod tolerant = new PendingPod(
                new PodRef("ml", "p"),
                gpus(8),
                new NodeConstraints(Map.of(), List.of(), List.of(new Toleration("nvidia.com/gpu", "Exists", "", ""))));

        ScheduleResult d = Scheduler.schedule(
                        List.of(tainted), Map.of(), List.of(new Request("w", List.of(), List.of(tolerant))))
                .get(0);

        assertThat(d).isEqualTo(new ScheduleResult.Bind(new PodRef("ml", "p"), "t"));
    }

    @Test
    void countsPodSlots() {
        NodeInfo twoSlots = new NodeInfo(
                "n",
                Map.of(),
                new ResourceList(Map.of(ResourceList.PODS, BigDecimal.valueOf(2))),
                List.of(),
                true,
                false);

        List<ScheduleResult> d = Scheduler.schedule(
                List.of(twoSlots),
                Map.of(),
                List.of(new Request("w", List.of(), List.of(pod("p0", 0), pod("p1", 0), pod("p2", 0)))));

        assertThat(d).extracting(x -> x instanceof ScheduleResult.Bind).containsExactly(true, true, false);
    }

    @Test
    void prefersTheTightestFitToKeepWholeNodesFree() {
        Map<String, ResourceList> used = Map.of("half", gpus(4));

        ScheduleResult d = Scheduler.schedule(
                        List.of(node("empty", 8), node("half", 8)),
                        used,
                        List.of(new Request("w", List.of(), List.of(pod("p", 4)))))
                .get(0);

        assertThat(d).isEqualTo(new ScheduleResult.Bind(new PodRef("ml", "p"), "half"));
    }
}
