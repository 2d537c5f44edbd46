package dev.cartograph.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.NodeState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random clusters of 8-GPU nodes in cliques a, b, c or none, and CPU nodes: a gang that requires one clique fits a
 * cluster exactly when, for some clique, the exhaustive planner (the reference that scans every node) places it on
 * that clique's nodes alone; when placed, every pod is on a node of the pinned clique and no node gives more GPUs than
 * it has free.
 */
class TopologyProperties {
    static final String CLIQUE = TopologyPlannerTest.CLIQUE;

    /** A node: its clique ("" for none, "cpu" for a CPU node) and GPUs used. */
    record Spec(String clique, int used) {}

    record Scenario(List<Spec> nodes, int workers, int gpus, int launchers) {}

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Spec> node = Combinators.combine(
                        Arbitraries.of("a", "a", "b", "b", "c", "", "cpu"), Arbitraries.of(0, 0, 0, 2, 4, 6, 8))
                .as(Spec::new);
        return Combinators.combine(
                        node.list().ofMinSize(1).ofMaxSize(10),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.of(1, 2, 4, 8),
                        Arbitraries.integers().between(0, 2))
                .as(Scenario::new);
    }

    static ClusterState cluster(List<Spec> specs) {
        List<NodeState> nodes = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            String name = "n" + i;
            nodes.add(
                    s.clique().equals("cpu")
                            ? TopologyPlannerTest.cpuNode(name, "16")
                            : TopologyPlannerTest.gpuNode(name, s.clique().isEmpty() ? null : s.clique(), s.used()));
        }
        return new ClusterState("c", Map.of(), true, nodes);
    }

    static List<PodDemand> gang(Scenario s) {
        List<PodDemand> out = new ArrayList<>(List.of(TopologyPlannerTest.workers(s.workers(), s.gpus())));
        if (s.launchers() > 0) {
            out.add(TopologyPlannerTest.launcher(s.launchers()));
        }
        return out;
    }

    @Property(tries = 400)
    void aRequiredCliqueFitsExactlyWhenTheExhaustivePlannerPlacesTheGangOnOneCliqueAlone(
            @ForAll("scenarios") Scenario s) {
        ClusterState c = cluster(s.nodes());
        List<PodDemand> gang = gang(s);
        Decision d = TopologyPlannerTest.plan(gang, GangTopology.required(CLIQUE), c);

        Set<String> cliques = new TreeSet<>();
        s.nodes().forEach(n -> {
            if (!n.clique().isEmpty() && !n.clique().equals("cpu")) {
                cliques.add(n.clique());
            }
        });
        boolean someCliqueHoldsIt = false;
        for (String clique : cliques) {
            List<NodeState> inside = c.nodes().stream()
                    .filter(n -> clique.equals(n.labels().get(CLIQUE)))
                    .toList();
            ClusterState only = new ClusterState("c", Map.of(), true, inside);
            someCliqueHoldsIt |= ExhaustivePlanner.plan(gang, Map.of(), List.of(only), Planner.Policy.BIN_PACK)
                    instanceof Decision.Placed;
        }
        assertThat(d instanceof Decision.Placed)
                .as("placed, against the reference per clique")
                .isEqualTo(someCliqueHoldsIt);

        if (d instanceof Decision.Placed p) {
            String clique = p.pin().get(CLIQUE);
            Map<String, Integer> gpusTaken = new HashMap<>();
            Map<String, NodeState> byName = new HashMap<>();
            c.nodes().forEach(n -> byName.put(n.name(), n));
            for (Decision.Assignment a : p.assignments()) {
                assertThat(byName.get(a.node()).labels().get(CLIQUE))
                        .as(a.toString())
                        .isEqualTo(clique);
                if (a.component().equals("worker")) {
                    gpusTaken.merge(a.node(), s.gpus(), Integer::sum);
                }
            }
            gpusTaken.forEach((node, taken) -> assertThat((long) taken)
                    .as("GPUs given on %s", node)
                    .isLessThanOrEqualTo(byName.get(node).free().gpus()));
        }
    }
}
