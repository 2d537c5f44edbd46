package dev.cartograph.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.testing.Nodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Gangs kept in one topology domain (an NVLink clique), on fleets counted by hand. */
class TopologyPlannerTest {
    static final String CLIQUE = "nvidia.com/gpu.clique";

    /** A ready 8-GPU H100 node in {@code clique} (none when null), {@code used} GPUs taken. */
    static NodeState gpuNode(String name, String clique, int used) {
        Map<String, String> labels = clique == null
                ? Map.of(NodeState.GPU_PRODUCT, Nodes.H100)
                : Map.of(NodeState.GPU_PRODUCT, Nodes.H100, CLIQUE, clique);
        return new NodeState(
                name,
                labels,
                List.of(),
                true,
                true,
                Nodes.res("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8", "pods", "110"),
                used == 0 ? ResourceList.EMPTY : Nodes.res("nvidia.com/gpu", String.valueOf(used)));
    }

    /** A ready node without GPUs: {@code cpu} CPUs, 256Gi. */
    static NodeState cpuNode(String name, String cpu) {
        return new NodeState(
                name,
                Map.of(),
                List.of(),
                true,
                true,
                Nodes.res("cpu", cpu, "memory", "256Gi", "pods", "110"),
                ResourceList.EMPTY);
    }

    static ClusterState cluster(String name, NodeState... nodes) {
        return new ClusterState(name, Map.of(), true, List.of(nodes));
    }

    static PodDemand workers(int count, int gpus) {
        return new PodDemand(
                "worker",
                "worker",
                count,
                Nodes.res("nvidia.com/gpu", String.valueOf(gpus), "cpu", "4"),
                NodeConstraints.selecting(Map.of()));
    }

    static PodDemand launcher(int count) {
        return new PodDemand("launcher", "launcher", count, Nodes.res("cpu", "4"), NodeConstraints.selecting(Map.of()));
    }

    static Decision plan(List<PodDemand> demand, GangTopology topology, ClusterState... clusters) {
        return Planner.plan(
                demand,
                Map.of(),
                PlanningFleet.of(List.of(clusters)),
                Planner.Policy.BIN_PACK,
                GpuBudget.NONE,
                topology);
    }

    static List<String> nodes(Decision d, Predicate<Decision.Assignment> which) {
        List<String> out = new ArrayList<>();
        ((Decision.Placed) d).assignments().stream().filter(which).forEach(a -> out.add(a.node()));
        return out;
    }

    static Decision.Verdict verdict(Decision d, String cluster) {
        return d.clusters().stream()
                .filter(v -> v.cluster().equals(cluster))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aGangThatFitsAClusterButNoSingleCliqueGoesWhereOneCliqueHoldsIt() {
        // east: cliques a and b, 4 free nodes each (32 + 32 GPUs, 64 in all); west: clique c, 6 free nodes (48)
        ClusterState east = cluster(
                "east",
                gpuNode("e1", "a", 0),
                gpuNode("e2", "a", 0),
                gpuNode("e3", "a", 0),
                gpuNode("e4", "a", 0),
                gpuNode("e5", "b", 0),
                gpuNode("e6", "b", 0),
                gpuNode("e7", "b", 0),
                gpuNode("e8", "b", 0));
        ClusterState west = cluster(
                "west",
                gpuNode("w1", "c", 0),
                gpuNode("w2", "c", 0),
                gpuNode("w3", "c", 0),
                gpuNode("w4", "c", 0),
                gpuNode("w5", "c", 0),
                gpuNode("w6", "c", 0));
        Decision d = plan(List.of(workers(5, 8)), GangTopology.required(CLIQUE), east, west);

        assertThat(d.chosen()).contains("west");
        assertThat(((Decision.Placed) d).pin()).isEqualTo(Map.of(CLIQUE, "c"));
        assertThat(nodes(d, a -> true)).containsExactly("w1", "w2", "w3", "w4", "w5");
        assertThat(verdict(d, "west").reason()).isEqualTo("fits: 5 pods on 5 nodes in nvidia.com/gpu.clique=c");
        assertThat(verdict(d, "east").fits()).isFalse();
        assertThat(verdict(d, "east").reason())
                .isEqualTo("needs 5 pods with 40 GPUs in one nvidia.com/gpu.clique domain: the largest free is"
                        + " nvidia.com/gpu.clique=a with 32 GPUs free on 4 nodes (largest block 8); 2 domains:"
                        + " a 32 GPUs free on 4 nodes, b 32 GPUs free on 4 nodes");

        // without the request east takes it (it is first by name among equal scores), across both cliques
        Decision free = plan(List.of(workers(5, 8)), GangTopology.NONE, east, west);
        assertThat(free.chosen()).contains("east");
        assertThat(((Decision.Placed) free).pin()).isEmpty();
    }

    @Test
    void aGangNoCliqueHoldsWaitsWithTheCliquesSizes() {
        // a: 3 nodes with 8, 8 and 2 free (18); b: 2 nodes with 8 and 4 free (12); 30 GPUs free in all, 24 asked
        ClusterState only = cluster(
                "only",
                gpuNode("n1", "a", 0),
                gpuNode("n2", "a", 0),
                gpuNode("n3", "a", 6),
                gpuNode("n4", "b", 0),
                gpuNode("n5", "b", 4));
        Decision d = plan(List.of(workers(3, 8)), GangTopology.required(CLIQUE), only);
        assertThat(d).isInstanceOf(Decision.Unschedulable.class);
        assertThat(verdict(d, "only").reason())
                .isEqualTo("needs 3 pods with 24 GPUs in one nvidia.com/gpu.clique domain: the largest free is"
                        + " nvidia.com/gpu.clique=a with 18 GPUs free on 3 nodes (largest block 8); 2 domains:"
                        + " a 18 GPUs free on 3 nodes, b 12 GPUs free on 2 nodes");
        // it does fit the cluster: 3 whole nodes (n1, n2, n4)
        assertThat(plan(List.of(workers(3, 8)), GangTopology.NONE, only).chosen())
                .contains("only");
    }

    @Test
    void aGangPacksIntoTheFullestCliqueThatHoldsItSoTheLargeOneStaysWhole() {
        // big: n1..n4 (32 free); small: n5, n6 (16 free). By name alone bin packing would take n1, n2.
        ClusterState c = cluster(
                "c",
                gpuNode("n1", "big", 0),
                gpuNode("n2", "big", 0),
                gpuNode("n3", "big", 0),
                gpuNode("n4", "big", 0),
                gpuNode("n5", "small", 0),
                gpuNode("n6", "small", 0));
        assertThat(nodes(plan(List.of(workers(2, 8)), GangTopology.NONE, c), a -> true))
                .containsExactly("n1", "n2");
        Decision d = plan(List.of(workers(2, 8)), GangTopology.required(CLIQUE), c);
        assertThat(nodes(d, a -> true)).containsExactly("n5", "n6");
        assertThat(((Decision.Placed) d).pin()).isEqualTo(Map.of(CLIQUE, "small"));
        // a gang of 3 does not fit small (16 free): it takes big
        Decision three = plan(List.of(workers(3, 8)), GangTopology.required(CLIQUE), c);
        assertThat(nodes(three, a -> true)).containsExactly("n1", "n2", "n3");
    }

    @Test
    void aPreferredRequestTakesTheFewestCliquesLargestFirst() {
        // a: 4 free (32), b: 2 free (16), c: one free node named first ("0c"). 5 × 8 = 40 GPUs: a + b hold it.
        ClusterState c = cluster(
                "c",
                gpuNode("0c", "c", 0),
                gpuNode("a1", "a", 0),
                gpuNode("a2", "a", 0),
                gpuNode("a3", "a", 0),
                gpuNode("a4", "a", 0),
                gpuNode("b1", "b", 0),
                gpuNode("b2", "b", 0));
        Decision d = plan(List.of(workers(5, 8)), GangTopology.preferred(CLIQUE), c);
        assertThat(nodes(d, a -> true)).containsExactly("a1", "a2", "a3", "a4", "b1");
        assertThat(((Decision.Placed) d).pin()).isEmpty();
        assertThat(verdict(d, "c").reason())
                .isEqualTo("fits: 5 pods on 5 nodes across 2 nvidia.com/gpu.clique domains (a, b)");
        // held by one clique, a preferred request is pinned as a required one is
        Decision two = plan(List.of(workers(2, 8)), GangTopology.preferred(CLIQUE), c);
        assertThat(nodes(two, a -> true)).containsExactly("b1", "b2"); // c (8 free) is fuller but cannot hold 2 × 8
        assertThat(((Decision.Placed) two).pin()).isEqualTo(Map.of(CLIQUE, "b"));
    }

    @Test
    void podsWithoutGpusGoToNodesWithoutGpusWhileTheyHaveRoom() {
        // the worker takes 4 CPUs on g1 (60 left); bin packing by CPU alone would put the launchers there too
        ClusterState roomy = cluster("roomy", gpuNode("g1", "a", 0), cpuNode("c1", "64"));
        Decision d = plan(List.of(workers(1, 8), launcher(2)), GangTopology.NONE, roomy);
        assertThat(nodes(d, a -> a.component().equals("launcher"))).containsExactly("c1", "c1");
        assertThat(nodes(d, a -> a.component().equals("worker"))).containsExactly("g1");
        // with 2 CPUs on the CPU node the launchers (4 each) go to the GPU node
        ClusterState tight = cluster("tight", gpuNode("g1", "a", 0), cpuNode("c1", "2"));
        Decision t = plan(List.of(workers(1, 8), launcher(2)), GangTopology.NONE, tight);
        assertThat(nodes(t, a -> a.component().equals("launcher"))).containsExactly("g1", "g1");
    }

    @Test
    void aRequestOfSomePodSetsKeepsOnlyThoseInTheClique() {
        // two cliques of 2 free nodes; the launcher may run on the CPU node, outside any clique
        ClusterState c = cluster(
                "c",
                gpuNode("a1", "a", 0),
                gpuNode("a2", "a", 0),
                gpuNode("b1", "b", 0),
                gpuNode("b2", "b", 0),
                cpuNode("cpu1", "64"));
        Decision d = plan(
                List.of(workers(2, 8), launcher(1)),
                GangTopology.required(CLIQUE).of(Set.of("worker")),
                c);
        assertThat(nodes(d, a -> a.component().equals("worker"))).containsExactly("a1", "a2");
        assertThat(nodes(d, a -> a.component().equals("launcher"))).containsExactly("cpu1");
        // asked of the whole gang, the launcher must be in the clique too: it joins the workers
        Decision whole = plan(List.of(workers(2, 8), launcher(1)), GangTopology.required(CLIQUE), c);
        assertThat(nodes(whole, a -> a.component().equals("launcher"))).containsExactly("a1");
    }

    @Test
    void nodesWithoutTheLabelAreInNoDomain() {
        ClusterState unlabelled = cluster("u", gpuNode("n1", null, 0), gpuNode("n2", null, 0));
        Decision d = plan(List.of(workers(1, 8)), GangTopology.required(CLIQUE), unlabelled);
        assertThat(verdict(d, "u").reason())
                .isEqualTo("needs 1 pods with 8 GPUs in one nvidia.com/gpu.clique domain: no ready node its pods may"
                        + " use has the label nvidia.com/gpu.clique");
        Decision preferred = plan(List.of(workers(1, 8)), GangTopology.preferred(CLIQUE), unlabelled);
        assertThat(preferred.chosen()).contains("u");
        assertThat(verdict(preferred, "u").reason())
                .isEqualTo("fits: 1 pods on 1 nodes (no nvidia.com/gpu.clique domains hold it: 0 domains)");
    }
}
