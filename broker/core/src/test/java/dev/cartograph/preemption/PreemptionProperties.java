package dev.cartograph.preemption;

import static dev.cartograph.testing.Nodes.H100;
import static dev.cartograph.testing.Nodes.node;
import static dev.cartograph.testing.Nodes.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.fairshare.QueueTree;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.ClusterCapacity;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PlanningCluster;
import dev.cartograph.placement.PlanningFleet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random fleets of 8-GPU nodes filled by gangs of a queue that borrows everything it holds (team-b, nominal 0), and a
 * waiting gang of a queue with room in its nominal quota (team-a): preemption finds victims exactly when some cluster
 * would take the gang once its borrowed gangs were gone, on that one cluster only, and the victims are a set none of
 * which could be spared.
 */
class PreemptionProperties {
    static final QueueTree TEAMS = PreemptionTest.tree(
            "metadata: {name: team-a}\nspec: {namespaces: [a], quota: {gpus: {" + H100 + ": 1000}}}",
            "metadata: {name: team-b}\nspec: {namespaces: [b], preemption: Never}");

    /** Per cluster, per node, the GPUs each gang on it holds (each node holds at most 8). */
    record Scenario(List<List<List<Integer>>> clusters, int pods, int gpusPerPod) {}

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<List<Integer>> nodeFill = Arbitraries.integers()
                .between(1, 8)
                .list()
                .ofMaxSize(4)
                .filter(l -> l.stream().mapToInt(Integer::intValue).sum() <= 8);
        Arbitrary<List<List<Integer>>> cluster = nodeFill.list().ofMinSize(1).ofMaxSize(4);
        return Combinators.combine(
                        cluster.list().ofMinSize(1).ofMaxSize(3),
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.of(1, 2, 4, 8))
                .as(Scenario::new);
    }

    @Property(tries = 300)
    void victimsAreFoundExactlyWhenOneClusterCouldTakeTheGangAndNoneOfThemCouldBeSpared(
            @ForAll("scenarios") Scenario s) {
        List<Victim> victims = new ArrayList<>();
        List<PlanningCluster> clusters = new ArrayList<>();
        long fleetGpus = 0;
        for (int c = 0; c < s.clusters().size(); c++) {
            String name = "c" + c;
            ClusterCapacity cap = new ClusterCapacity();
            List<List<Integer>> nodes = s.clusters().get(c);
            for (int n = 0; n < nodes.size(); n++) {
                String node = name + "-" + n;
                int used = 0;
                for (int g : nodes.get(n)) {
                    victims.add(new Victim(
                            "v" + victims.size(),
                            "b/v" + victims.size(),
                            "team-b",
                            0,
                            name,
                            Map.of(node, res("nvidia.com/gpu", String.valueOf(g))),
                            Map.of(H100, (long) g),
                            Instant.EPOCH.plusSeconds(victims.size()),
                            victims.size() % 2 == 0));
                    used += g;
                }
                cap.put(node(node, H100, 8, used), ResourceList.EMPTY);
                fleetGpus += 8;
            }
            clusters.add(new PlanningCluster(name, Map.of(), true, cap));
        }
        PlanningFleet fleet = new PlanningFleet(clusters);
        Preemptor gang = PreemptionTest.gang("team-a", 0, PreemptionTest.pods(s.pods(), s.gpusPerPod()));
        Assume.that(!(Planner.plan(gang.pods(), Map.of(), fleet, Planner.Policy.BIN_PACK) instanceof Decision.Placed));
        long held = victims.stream().mapToLong(Victim::gpuCount).sum();
        Map<String, Map<String, Long>> usage = held == 0 ? Map.of() : Map.of("team-b", Map.of(H100, held));

        Optional<Preemption.Plan> plan =
                Preemption.plan(gang, victims, fleet, TEAMS, usage, Map.of(H100, fleetGpus), Planner.Policy.BIN_PACK);

        boolean someClusterWould = clusters.stream().anyMatch(c -> fitsWithout(gang, c, onCluster(victims, c)));
        assertThat(plan.isPresent()).isEqualTo(someClusterWould);
        if (plan.isEmpty()) {
            return;
        }
        Preemption.Plan p = plan.get();
        PlanningCluster chosen = fleet.only(p.cluster()).clusters().get(0);
        assertThat(p.victims()).allMatch(v -> v.cluster().equals(p.cluster())).isNotEmpty();
        assertThat(p.placed().cluster()).isEqualTo(p.cluster());
        assertThat(fitsWithout(gang, chosen, p.victims())).isTrue();
        for (Victim spared : p.victims()) {
            List<Victim> rest = new ArrayList<>(p.victims());
            rest.remove(spared);
            assertThat(fitsWithout(gang, chosen, rest))
                    .as("%s could be spared", spared.uid())
                    .isFalse();
        }
    }

    private static List<Victim> onCluster(List<Victim> victims, PlanningCluster c) {
        return victims.stream().filter(v -> v.cluster().equals(c.name())).toList();
    }

    /** Whether the gang fits on the cluster with these victims' GPUs free (checked without the code under test's search). */
    private static boolean fitsWithout(Preemptor gang, PlanningCluster c, List<Victim> gone) {
        Map<String, Long> freed = new HashMap<>();
        for (Victim v : gone) {
            v.perNode().forEach((node, r) -> freed.merge(node, r.gpus(), Long::sum));
        }
        ClusterCapacity cap = new ClusterCapacity();
        for (var n : c.capacity().nodes()) {
            long used = n.allocated().gpus() - freed.getOrDefault(n.name(), 0L);
            cap.put(node(n.name(), H100, 8, (int) used), ResourceList.EMPTY);
        }
        PlanningFleet one = new PlanningFleet(List.of(new PlanningCluster(c.name(), Map.of(), true, cap)));
        return Planner.plan(gang.pods(), Map.of(), one, Planner.Policy.BIN_PACK) instanceof Decision.Placed;
    }
}
