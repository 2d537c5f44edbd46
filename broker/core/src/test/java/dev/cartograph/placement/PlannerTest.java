package dev.cartograph.placement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.interpreter.scheduling.NodeSelectorTerm;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.interpreter.scheduling.Toleration;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.testing.Nodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every rule of the planner, on fleets counted by hand. */
@Timeout(60)
class PlannerTest {
    static final String H100 = Nodes.H100;
    static final String A100 = Nodes.A100;

    static ResourceList res(String... kv) {
        return Nodes.res(kv);
    }

    static NodeState node(String name, String product, int gpus, int usedGpus) {
        return Nodes.node(name, product, gpus, usedGpus);
    }

    static ClusterState cluster(String name, NodeState... nodes) {
        return new ClusterState(name, Map.of(), true, List.of(nodes));
    }

    static PodDemand pods(int count, int gpus, Map<String, String> selector) {
        return new PodDemand(
                "worker",
                "worker",
                count,
                res("nvidia.com/gpu", String.valueOf(gpus), "cpu", "4"),
                NodeConstraints.selecting(selector));
    }

    @Test
    void twelveFreeGpusThreePerNodeCannotTakeTwoFourGpuPodsButSixAndSixCan() {
        ClusterState scattered = cluster(
                "scattered",
                node("a", H100, 8, 5),
                node("b", H100, 8, 5),
                node("c", H100, 8, 5),
                node("d", H100, 8, 5));
        ClusterState twoBlocks = cluster("two-blocks", node("e", H100, 8, 2), node("f", H100, 8, 2));
        Decision d = Planner.plan(
                List.of(pods(2, 4, Map.of())), Map.of(), List.of(scattered, twoBlocks), Planner.Policy.BIN_PACK);
        assertThat(d.chosen()).contains("two-blocks");
        Decision.Verdict no = d.clusters().stream()
                .filter(v -> v.cluster().equals("scattered"))
                .findFirst()
                .orElseThrow();
        assertThat(no.cluster()).isEqualTo("scattered");
        assertThat(no.reason())
                .isEqualTo(
                        "needs 2 pods × 4 GPUs (worker); largest free block 3 on 4 ready nodes, room for 0 such pods (12 GPUs free in all)");
        assertThat(((Decision.Placed) d).assignments())
                .extracting(Decision.Assignment::node)
                .containsExactlyInAnyOrder("e", "f");
    }

    @Test
    void binPackingKeepsWholeNodesFreeAndSpreadDoesNot() {
        ClusterState partly = cluster("partly", node("a", H100, 8, 4), node("b", H100, 8, 0));
        ClusterState empty = cluster("empty", node("c", H100, 8, 0), node("d", H100, 8, 0));
        Decision pack =
                Planner.plan(List.of(pods(1, 4, Map.of())), Map.of(), List.of(partly, empty), Planner.Policy.BIN_PACK);
        assertThat(pack.chosen()).contains("partly"); // fills a's half, leaves b whole
        assertThat(((Decision.Placed) pack).assignments().get(0).node()).isEqualTo("a");
        Decision spread =
                Planner.plan(List.of(pods(1, 4, Map.of())), Map.of(), List.of(partly, empty), Planner.Policy.SPREAD);
        assertThat(spread.chosen()).contains("empty");
    }

    @Test
    void gpuModelSelectorTaintsCordonAndReadiness() {
        ClusterState a100 = cluster("a100", node("x", A100, 8, 0));
        Map<String, String> wantsH100 = Map.of(NodeState.GPU_PRODUCT, H100);
        Decision d = Planner.plan(List.of(pods(1, 8, wantsH100)), Map.of(), List.of(a100), Planner.Policy.BIN_PACK);
        assertThat(d).isInstanceOf(Decision.Unschedulable.class);
        assertThat(d.clusters().get(0).reason())
                .startsWith("no node can run worker: 1 of 1 nodes are ready and schedulable, none of them has labels "
                        + NodeState.GPU_PRODUCT + "=" + H100);

        NodeState tainted = new NodeState(
                "t",
                Map.of(NodeState.GPU_PRODUCT, H100),
                List.of(new Taint("nvidia.com/gpu", "present", "NoSchedule")),
                true,
                true,
                node("t", H100, 8, 0).allocatable(),
                ResourceList.EMPTY);
        NodeState cordoned = new NodeState(
                "c",
                Map.of(NodeState.GPU_PRODUCT, H100),
                List.of(),
                true,
                false,
                tainted.allocatable(),
                ResourceList.EMPTY);
        NodeState notReady = new NodeState(
                "n",
                Map.of(NodeState.GPU_PRODUCT, H100),
                List.of(),
                false,
                true,
                tainted.allocatable(),
                ResourceList.EMPTY);
        ClusterState h100 = cluster("h100", tainted, cordoned, notReady);
        assertThat(Planner.plan(List.of(pods(1, 8, wantsH100)), Map.of(), List.of(h100), Planner.Policy.BIN_PACK))
                .isInstanceOf(Decision.Unschedulable.class);
        Toleration tolerate = new Toleration("nvidia.com/gpu", Toleration.EXISTS, "", Taint.NO_SCHEDULE);
        PodDemand tolerant = new PodDemand(
                "w", "w", 1, res("nvidia.com/gpu", "8"), new NodeConstraints(wantsH100, List.of(), List.of(tolerate)));
        Decision ok = Planner.plan(List.of(tolerant), Map.of(), List.of(h100), Planner.Policy.BIN_PACK);
        assertThat(((Decision.Placed) ok).assignments())
                .singleElement()
                .satisfies(a -> assertThat(a.node()).isEqualTo("t"));

        ClusterState down = new ClusterState("down", Map.of(), false, List.of(node("z", H100, 8, 0)));
        assertThat(Planner.plan(List.of(pods(1, 1, Map.of())), Map.of(), List.of(down), Planner.Policy.BIN_PACK)
                        .clusters()
                        .get(0)
                        .reason())
                .isEqualTo("cluster is not ready (no recent heartbeat from its agent)");
    }

    @Test
    void requiredNodeAffinityAndClusterSelector() {
        NodeSelectorTerm term = new NodeSelectorTerm(
                List.of(new NodeSelectorTerm.Requirement(NodeState.GPU_PRODUCT, "In", List.of(A100, H100))), List.of());
        PodDemand any = new PodDemand(
                "w", "w", 1, res("nvidia.com/gpu", "1"), new NodeConstraints(Map.of(), List.of(term), List.of()));
        ClusterState l40 = cluster("l40", node("l", "NVIDIA-L40S", 4, 0));
        ClusterState prod = new ClusterState("prod", Map.of("tier", "prod"), true, List.of(node("p", A100, 8, 0)));
        assertThat(Planner.plan(List.of(any), Map.of(), List.of(l40, prod), Planner.Policy.BIN_PACK)
                        .chosen())
                .contains("prod");
        Decision selected = Planner.plan(
                List.of(pods(1, 1, Map.of())), Map.of("tier", "dev"), List.of(prod), Planner.Policy.BIN_PACK);
        assertThat(selected.clusters().get(0).reason())
                .isEqualTo("cluster labels do not match the cluster selector tier=dev");
    }

    /** Kubernetes: "a null or empty node selector term matches no objects"; the planner's old filter let it match every node. */
    @Test
    void aRequiredAffinityWhoseOnlyTermIsEmptyFitsNoNode() {
        NodeConstraints emptyTerm =
                new NodeConstraints(Map.of(), List.of(new NodeSelectorTerm(List.of(), List.of())), List.of());
        Decision d = Planner.plan(
                List.of(new PodDemand("w", "w", 1, res("cpu", "1"), emptyTerm)),
                Map.of(),
                List.of(cluster("any", node("n", H100, 8, 0))),
                Planner.Policy.BIN_PACK);
        assertThat(d).isInstanceOf(Decision.Unschedulable.class);
        assertThat(d.clusters().get(0).reason()).contains("passes its node affinity and tolerations");
    }

    @Test
    void cpuAndMemoryAndPodSlotsCountToo() {
        NodeState small = new NodeState(
                "s",
                Map.of(),
                List.of(),
                true,
                true,
                res("cpu", "8", "memory", "16Gi", "pods", "2"),
                ResourceList.EMPTY);
        PodDemand big =
                new PodDemand("db", "db", 1, res("cpu", "4", "memory", "32Gi"), NodeConstraints.selecting(Map.of()));
        Decision d = Planner.plan(List.of(big), Map.of(), List.of(cluster("c", small)), Planner.Policy.BIN_PACK);
        assertThat(d.clusters().get(0).reason())
                .isEqualTo(
                        "needs 1 pods (db) each with memory 34359738368 (most free on one node: 17179869184) on 1 ready nodes");
        PodDemand three = new PodDemand("w", "w", 3, res("cpu", "1"), NodeConstraints.selecting(Map.of()));
        assertThat(Planner.plan(List.of(three), Map.of(), List.of(cluster("c", small)), Planner.Policy.BIN_PACK))
                .isInstanceOf(Decision.Unschedulable.class); // only 2 pod slots
    }

    @Test
    void anElasticGangNeedsOnlyItsMinimumToFitTogether() throws Exception {
        // a PyTorchJob of 4 workers x 8 GPUs, elastic down to 2 (interpreted by the catalog definition), on two free
        // 8-GPU nodes
        String job = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: elastic, namespace: ml}
                spec:
                  %s
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 4
                      template:
                        spec:
                          containers: [{name: pytorch, image: t, resources: {limits: {nvidia.com/gpu: "8"}}}]
                """;
        List<ClusterState> fleet = List.of(cluster("small", node("n1", H100, 8, 0), node("n2", H100, 8, 0)));
        var interpreter = dev.cartograph.interpreter.Interpreter.of(
                dev.cartograph.catalog.Catalog.load().definitions());
        for (String[] c : new String[][] {
            {"elasticPolicy: {minReplicas: 2, maxReplicas: 4}", "Placed"}, {"runPolicy: {}", "Unschedulable"}
        }) {
            JsonNode object = dev.cartograph.interpreter.Documents.read(new java.io.ByteArrayInputStream(
                            job.formatted(c[0]).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .get(0);
            var view = ((dev.cartograph.interpreter.Resolution.Resolved) interpreter.resolve(object)).view();
            Decision d = Planner.plan(Demands.of(view), Map.of(), fleet, Planner.Policy.BIN_PACK);
            assertThat(d instanceof Decision.Placed ? "Placed" : "Unschedulable")
                    .as(c[0])
                    .isEqualTo(c[1]);
            if (d instanceof Decision.Placed p) {
                assertThat(p.assignments())
                        .extracting(Decision.Assignment::node)
                        .containsExactlyInAnyOrder("n1", "n2");
            } else {
                assertThat(d.clusters().get(0).reason()).contains("needs 4 pods × 8 GPUs", "room for 2 such pods");
            }
        }
    }

    @Test
    void decisionsAreDeterministic() {
        List<ClusterState> fleet = List.of(cluster("b", node("b1", H100, 8, 0)), cluster("a", node("a1", H100, 8, 0)));
        Decision first = Planner.plan(List.of(pods(1, 8, Map.of())), Map.of(), fleet, Planner.Policy.BIN_PACK);
        for (int i = 0; i < 20; i++) {
            assertThat(Planner.plan(List.of(pods(1, 8, Map.of())), Map.of(), fleet, Planner.Policy.BIN_PACK))
                    .isEqualTo(first);
        }
        assertThat(first.chosen()).contains("a"); // equal scores: by name
    }

    @Test
    void placedGangsNeverExceedAnyNodesFreeCapacity() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            List<ClusterState> fleet = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                List<NodeState> nodes = new ArrayList<>();
                for (int n = 0; n < 1 + random.nextInt(6); n++) {
                    nodes.add(node("c" + c + "n" + n, H100, 8, random.nextInt(9)));
                }
                fleet.add(new ClusterState("c" + c, Map.of(), true, nodes));
            }
            List<PodDemand> gang = List.of(
                    pods(1 + random.nextInt(6), 1 + random.nextInt(8), Map.of()),
                    new PodDemand(
                            "head",
                            "head",
                            1,
                            res("cpu", String.valueOf(1 + random.nextInt(60))),
                            NodeConstraints.selecting(Map.of())));
            Decision d = Planner.plan(gang, Map.of(), fleet, Planner.Policy.values()[round % 2]);
            if (d instanceof Decision.Placed p) {
                ClusterState c = fleet.stream()
                        .filter(x -> x.name().equals(p.cluster()))
                        .findFirst()
                        .orElseThrow();
                Map<String, ResourceList> used = new HashMap<>();
                for (Decision.Assignment a : p.assignments()) {
                    PodDemand pd = gang.stream()
                            .filter(g -> g.component().equals(a.component()))
                            .findFirst()
                            .orElseThrow();
                    used.merge(a.node(), pd.perPod(), ResourceList::plus);
                }
                assertThat(p.assignments())
                        .hasSize(gang.stream().mapToInt(PodDemand::count).sum());
                for (NodeState n : c.nodes()) {
                    assertThat(used.getOrDefault(n.name(), ResourceList.EMPTY).fitsIn(n.free()))
                            .as("round %d node %s", round, n.name())
                            .isTrue();
                }
            } else {
                // nothing fits: then no cluster has enough free GPUs in total, or none has big enough blocks
                assertThat(d.clusters()).allSatisfy(v -> assertThat(v.fits()).isFalse());
            }
        }
    }
}
