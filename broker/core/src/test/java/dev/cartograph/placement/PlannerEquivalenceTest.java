package dev.cartograph.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.FromScratch;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.interpreter.scheduling.NodeSelectorTerm;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.interpreter.scheduling.Toleration;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.testing.Nodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The indexed planner against the one that scans every node ({@link ExhaustivePlanner}) on random
 * fleets: the same decision — cluster, every pod's node, every cluster's verdict, reason and score —
 * and no node given more than it has free. Each try builds a fleet through {@link Fleet} and keeps it
 * changing between decisions (gangs reserved, nodes changed, added and removed by summaries with and
 * without the changed set, reservations released), so the index is checked as it is kept up to date,
 * not only when freshly built.
 */
class PlannerEquivalenceTest {
    private static final Instant T = Instant.parse("2026-12-03T12:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(1);
    private static final String[] PRODUCTS = {Nodes.H100, Nodes.A100, "NVIDIA-L40S"};

    @Property(tries = 300)
    void theIndexedPlannerDecidesExactlyAsScanningEveryNodeDoes(@ForAll long seed) {
        Random r = new Random(seed);
        Fleet fleet = new Fleet();
        Map<String, List<NodeState>> nodes = new LinkedHashMap<>();
        Map<String, Long> sequence = new HashMap<>();
        int clusters = 1 + r.nextInt(4);
        for (int c = 0; c < clusters; c++) {
            String name = "c" + c;
            List<NodeState> list = new ArrayList<>();
            int count = r.nextInt(25);
            for (int n = 0; n < count; n++) {
                list.add(node(r, name + "-n" + n));
            }
            nodes.put(name, list);
            sequence.put(name, 1L);
            fleet.accept(summary(name, 1, list), T);
        }
        List<String> reserved = new ArrayList<>();
        for (int step = 0; step < 16; step++) {
            List<PodDemand> gang = gang(r);
            Map<String, String> selector = r.nextInt(5) == 0 ? Map.of("tier", "prod") : Map.of();
            Planner.Policy policy = Planner.Policy.values()[r.nextInt(2)];
            List<ClusterState> plain = FromScratch.planning(fleet.snapshot(), T, TIMEOUT);
            Decision expected = ExhaustivePlanner.plan(gang, selector, plain, policy);
            Decision actual = Planner.plan(gang, selector, fleet.planning(T, TIMEOUT), policy);
            assertSameDecision(actual, expected, "seed " + seed + " step " + step);
            if (actual instanceof Decision.Placed p) {
                assertNothingOverCommitted(p, gang, plain);
                String id = "p" + step;
                fleet.reserve(id, 1, p, gang);
                reserved.add(id);
            }
            switch (r.nextInt(4)) {
                case 0 -> { // the agent reports some nodes changed, added or gone, and says which
                    String c = pick(r, nodes.keySet());
                    Set<String> changed = change(r, c, nodes.get(c));
                    long seq = sequence.merge(c, 1L, Long::sum);
                    fleet.accept(summary(c, seq, nodes.get(c)), T, r.nextBoolean() ? changed : null);
                }
                case 1 -> { // a placement went away
                    if (!reserved.isEmpty()) {
                        fleet.release(reserved.remove(r.nextInt(reserved.size())));
                    }
                }
                default -> {}
            }
        }
    }

    /**
     * The same choice, the same pods on the same nodes, the same verdict for every cluster — except a
     * cluster the indexed planner did not plan in full, which must truly not have beaten the choice,
     * with a score bound no higher than its real score.
     */
    private static void assertSameDecision(Decision actual, Decision expected, String as) {
        assertThat(actual.getClass()).as(as).isEqualTo(expected.getClass());
        assertThat(actual.chosen()).as(as).isEqualTo(expected.chosen());
        if (expected instanceof Decision.Placed p) {
            assertThat(((Decision.Placed) actual).assignments()).as(as).isEqualTo(p.assignments());
        }
        assertThat(actual.clusters()).hasSameSizeAs(expected.clusters());
        for (int i = 0; i < expected.clusters().size(); i++) {
            Decision.Verdict e = expected.clusters().get(i);
            Decision.Verdict a = actual.clusters().get(i);
            if (a.reason().startsWith("not planned in full")) {
                Decision.Placed p = (Decision.Placed) expected;
                long chosen = p.clusters().stream()
                        .filter(v -> v.cluster().equals(p.cluster()))
                        .findFirst()
                        .orElseThrow()
                        .score();
                assertThat(e.fits() ? e.score() : Long.MAX_VALUE)
                        .as(as + ": " + a)
                        .isGreaterThanOrEqualTo(chosen)
                        .isGreaterThanOrEqualTo(a.score());
            } else if (a.reason().contains(" free in all on the ")) { // short in total: a necessary condition
                assertThat(e.fits()).as(as + ": " + a + " vs " + e).isFalse();
                assertThat(a.fits()).isFalse();
            } else {
                assertThat(a).as(as).isEqualTo(e);
            }
        }
    }

    private static void assertNothingOverCommitted(Decision.Placed p, List<PodDemand> gang, List<ClusterState> plain) {
        ClusterState c = plain.stream()
                .filter(s -> s.name().equals(p.cluster()))
                .findFirst()
                .orElseThrow();
        Map<String, ResourceList> asked = new HashMap<>();
        for (Decision.Assignment a : p.assignments()) {
            PodDemand d = gang.stream()
                    .filter(x -> x.component().equals(a.component()))
                    .findFirst()
                    .orElseThrow();
            asked.merge(a.node(), d.perPod().plus(Nodes.res("pods", "1")), ResourceList::plus);
        }
        for (NodeState n : c.nodes()) {
            if (asked.containsKey(n.name())) {
                assertThat(asked.get(n.name()).fitsIn(n.free()))
                        .as("node %s asked %s, free %s", n.name(), asked.get(n.name()), n.free())
                        .isTrue();
            }
        }
    }

    private static Set<String> change(Random r, String cluster, List<NodeState> list) {
        Set<String> changed = new HashSet<>();
        int edits = 1 + r.nextInt(3);
        for (int i = 0; i < edits; i++) {
            int what = r.nextInt(3);
            if (what == 0 || list.isEmpty()) {
                NodeState added = node(r, cluster + "-x" + r.nextInt(1000));
                list.removeIf(n -> n.name().equals(added.name()));
                list.add(added);
                changed.add(added.name());
            } else if (what == 1) {
                NodeState gone = list.remove(r.nextInt(list.size()));
                changed.add(gone.name());
            } else {
                int at = r.nextInt(list.size());
                NodeState again = node(r, list.get(at).name());
                list.set(at, again);
                changed.add(again.name());
            }
        }
        return changed;
    }

    private static ClusterSummary summary(String cluster, long sequence, List<NodeState> nodes) {
        Map<String, String> labels = cluster.equals("c0") ? Map.of("tier", "prod") : Map.of("tier", "dev");
        return new ClusterSummary(cluster, labels, "0", "i", sequence, T, nodes, List.of());
    }

    /** Nodes of a few kinds: GPU models, zones, a taint, some not ready or cordoned, partly allocated. */
    private static NodeState node(Random r, String name) {
        int gpus = new int[] {0, 4, 8, 8}[r.nextInt(4)];
        Map<String, String> labels = new HashMap<>();
        labels.put(NodeFilter.HOSTNAME, name);
        labels.put("zone", "z" + r.nextInt(2));
        if (gpus > 0) {
            labels.put(NodeState.GPU_PRODUCT, PRODUCTS[r.nextInt(PRODUCTS.length)]);
        }
        List<Taint> taints =
                r.nextInt(6) == 0 ? List.of(new Taint("dedicated", "train", Taint.NO_SCHEDULE)) : List.of();
        ResourceList allocatable = Nodes.res(
                "cpu",
                "" + (8 + 8 * r.nextInt(4)),
                "memory",
                (64 << r.nextInt(3)) + "Gi",
                "pods",
                "" + (4 + r.nextInt(8)));
        if (gpus > 0) {
            allocatable = allocatable.plus(Nodes.res("nvidia.com/gpu", "" + gpus));
        }
        if (r.nextInt(3) == 0) { // a resource beyond the usual four: compared as exact decimals
            allocatable = allocatable.plus(Nodes.res("example.com/fpga", "" + (1 + r.nextInt(3))));
        }
        ResourceList allocated =
                Nodes.res("cpu", r.nextInt(8) + "", "memory", r.nextInt(32) + "Gi", "pods", "" + r.nextInt(4));
        if (gpus > 0) {
            allocated = allocated.plus(Nodes.res("nvidia.com/gpu", "" + r.nextInt(gpus + 1)));
        }
        return new NodeState(name, labels, taints, r.nextInt(10) != 0, r.nextInt(10) != 0, allocatable, allocated);
    }

    /** One to three demands: GPU workers of 1–8 GPUs, CPU-only pods, some pinned to a model, zone or node. */
    private static List<PodDemand> gang(Random r) {
        List<PodDemand> out = new ArrayList<>();
        int demands = 1 + r.nextInt(3);
        for (int i = 0; i < demands; i++) {
            int gpus = new int[] {0, 1, 2, 4, 8}[r.nextInt(5)];
            ResourceList perPod =
                    Nodes.res("cpu", (250 + 250 * r.nextInt(24)) + "m", "memory", (1 + r.nextInt(24)) + "Gi");
            if (r.nextInt(6) == 0) {
                perPod = perPod.plus(Nodes.res("example.com/fpga", "1"));
            }
            if (gpus > 0) {
                perPod = perPod.plus(Nodes.res("nvidia.com/gpu", "" + gpus));
            }
            Map<String, String> selector = new HashMap<>();
            List<NodeSelectorTerm> terms = new ArrayList<>();
            List<Toleration> tolerations = new ArrayList<>();
            switch (r.nextInt(6)) {
                case 0 -> selector.put(NodeState.GPU_PRODUCT, PRODUCTS[r.nextInt(PRODUCTS.length)]);
                case 1 -> selector.put("zone", "z" + r.nextInt(2));
                case 2 ->
                    terms.add(new NodeSelectorTerm(
                            List.of(new NodeSelectorTerm.Requirement(
                                    NodeFilter.HOSTNAME, "NotIn", List.of("c0-n1", "c1-n2", "c2-n3"))),
                            List.of()));
                case 3 -> tolerations.add(new Toleration("dedicated", Toleration.EXISTS, "", Taint.NO_SCHEDULE));
                default -> {}
            }
            out.add(new PodDemand(
                    "part" + i, "part" + i, r.nextInt(8), perPod, new NodeConstraints(selector, terms, tolerations)));
        }
        return out;
    }

    private static String pick(Random r, Set<String> names) {
        return new ArrayList<>(names).get(r.nextInt(names.size()));
    }
}
