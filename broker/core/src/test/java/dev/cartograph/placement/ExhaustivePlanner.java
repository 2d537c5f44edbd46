package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The planner as it was before the capacity index (issue 14), kept as the reference the indexed
 * {@link Planner} is compared with (PlannerEquivalenceTest): it scans every node of every cluster for
 * every pod. Places a whole gang on one cluster: every pod must get a node with room for it at the same
 * time, on real per-node free capacity (a cluster with 12 free GPUs spread 3 per node cannot take
 * two 4-GPU pods). Pods are placed largest first; each goes to the node that best fits the policy.
 * Pure and thread-safe; decisions are deterministic for equal inputs.
 */
final class ExhaustivePlanner {
    private static final ResourceList ONE_POD =
            new ResourceList(new TreeMap<>(Map.of(ResourceList.PODS, BigDecimal.ONE)));

    private ExhaustivePlanner() {}

    public static Decision plan(
            List<PodDemand> demand,
            Map<String, String> clusterSelector,
            List<ClusterState> fleet,
            Planner.Policy policy) {
        List<Decision.Verdict> verdicts = new ArrayList<>();
        Map<String, List<Decision.Assignment>> fits = new LinkedHashMap<>();
        List<ClusterState> clusters =
                fleet.stream().sorted(Comparator.comparing(ClusterState::name)).toList();
        for (ClusterState c : clusters) {
            Attempt a = attempt(demand, clusterSelector, c, policy);
            verdicts.add(new Decision.Verdict(c.name(), a.assignments != null, a.reason, a.score));
            if (a.assignments != null) {
                fits.put(c.name(), a.assignments);
            }
        }
        return verdicts.stream()
                .filter(Decision.Verdict::fits)
                .min(Comparator.comparingLong(Decision.Verdict::score).thenComparing(Decision.Verdict::cluster))
                .<Decision>map(best -> new Decision.Placed(best.cluster(), fits.get(best.cluster()), verdicts))
                .orElseGet(() -> new Decision.Unschedulable(verdicts));
    }

    private record Attempt(List<Decision.Assignment> assignments, String reason, long score) {}

    private record Pod(PodDemand demand, int index, ResourceList request) {}

    private static Attempt attempt(
            List<PodDemand> demand, Map<String, String> selector, ClusterState c, Planner.Policy policy) {
        if (!c.ready()) {
            return new Attempt(null, "cluster is not ready (no recent heartbeat from its agent)", Long.MAX_VALUE);
        }
        if (!NodeFilter.selects(selector, c.labels())) {
            return new Attempt(
                    null, "cluster labels do not match the cluster selector " + format(selector), Long.MAX_VALUE);
        }
        // only nodes some pod may use are looked at again; a cluster short of GPU blocks is refused up front
        Map<PodDemand, List<NodeState>> eligible = new java.util.IdentityHashMap<>();
        Map<String, ResourceList> free = new TreeMap<>();
        Map<String, Long> freeGpus = new java.util.HashMap<>();
        for (PodDemand d : demand) {
            List<NodeState> ok = new ArrayList<>();
            long blocks = 0;
            long gpus = d.perPod().gpus();
            for (NodeState n : c.nodes()) {
                if (NodeFilter.eligible(d, n)) {
                    ok.add(n);
                    if (gpus > 0) {
                        blocks += Math.max(
                                        0,
                                        n.allocatable().gpus() - n.allocated().gpus())
                                / gpus;
                    }
                }
            }
            eligible.put(d, ok);
            if (d.count() > 0 && (ok.isEmpty() || gpus > 0 && blocks < d.count())) {
                for (NodeState n : ok) {
                    free.putIfAbsent(n.name(), n.free());
                }
                return new Attempt(
                        null,
                        whyNot(new Pod(d, 0, d.perPod().plus(ONE_POD)), List.of(), c, free, d.count()),
                        Long.MAX_VALUE);
            }
        }
        List<Pod> pods = new ArrayList<>();
        for (PodDemand d : demand) {
            for (int i = 0; i < d.count(); i++) {
                pods.add(new Pod(d, i, d.perPod().plus(ONE_POD)));
            }
        }
        pods.sort(Comparator.comparingLong((Pod p) -> -p.request.gpus())
                .thenComparingLong(p -> -p.request.cpuMillis())
                .thenComparingLong(p -> -p.request.memoryBytes())
                .thenComparing(p -> p.demand.component())
                .thenComparing(p -> p.demand.instance())
                .thenComparingInt(p -> p.index));
        List<Decision.Assignment> assignments = new ArrayList<>();
        Set<String> touched = new HashSet<>();
        for (Pod p : pods) {
            String best = null;
            long bestKey = 0;
            long podGpus = p.request.gpus();
            // a pod without GPUs is offered nodes without GPUs first, and nodes with GPUs only when none has room
            for (int pass = podGpus > 0 ? 2 : 0; pass < 3 && best == null; pass++) {
                for (NodeState n : eligible.get(p.demand)) {
                    if (pass < 2 && (n.allocatable().gpus() > 0) != (pass == 1)) {
                        continue;
                    }
                    long gpusHere = freeGpus.computeIfAbsent(
                            n.name(),
                            k -> Math.max(
                                    0, n.allocatable().gpus() - n.allocated().gpus()));
                    if (gpusHere < podGpus) {
                        continue; // cheap test first: most nodes fail on GPUs
                    }
                    // GPU pods rank by GPUs left, others by CPU left; the full fit is checked only for a node that
                    // would
                    // win
                    long key;
                    if (podGpus > 0) {
                        long left = gpusHere - podGpus;
                        key = policy == Planner.Policy.BIN_PACK ? left : -left;
                        if (best != null
                                && (key > bestKey || key == bestKey && n.name().compareTo(best) > 0)) {
                            continue;
                        }
                        if (!p.request.fitsIn(free.computeIfAbsent(n.name(), k -> n.free()))) {
                            continue;
                        }
                    } else {
                        ResourceList room = free.computeIfAbsent(n.name(), k -> n.free());
                        if (!p.request.fitsIn(room)) {
                            continue;
                        }
                        long left = room.cpuMillis() - p.request.cpuMillis();
                        key = policy == Planner.Policy.BIN_PACK ? left : -left;
                        if (best != null
                                && (key > bestKey || key == bestKey && n.name().compareTo(best) > 0)) {
                            continue;
                        }
                    }
                    best = n.name();
                    bestKey = key;
                }
            }
            if (best == null) {
                return new Attempt(null, whyNot(p, pods, c, free, -1), Long.MAX_VALUE);
            }
            String chosen = best;
            free.put(
                    chosen,
                    free.computeIfAbsent(chosen, k -> nodeNamed(c, k).free()).minus(p.request));
            freeGpus.merge(best, -podGpus, Long::sum);
            touched.add(best);
            assignments.add(new Decision.Assignment(p.demand.component(), p.demand.instance(), p.index, best));
        }
        assignments.sort(Comparator.comparing(Decision.Assignment::component)
                .thenComparing(Decision.Assignment::instance)
                .thenComparingInt(Decision.Assignment::pod));
        return new Attempt(
                assignments,
                "fits: " + pods.size() + " pods on " + touched.size() + " nodes",
                score(c, free, touched, policy));
    }

    private static NodeState nodeNamed(ClusterState c, String name) {
        return c.nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    /** BIN_PACK: fewer nodes left with some but not all GPUs free, then fewer GPUs left on touched nodes. SPREAD: most GPUs left free. */
    private static long score(
            ClusterState c, Map<String, ResourceList> free, Set<String> touched, Planner.Policy policy) {
        long fragmented = 0;
        long leftOnTouched = 0;
        long totalFree = 0;
        for (NodeState n : c.nodes()) {
            long all = n.allocatable().gpus();
            ResourceList changed = touched.contains(n.name()) ? free.get(n.name()) : null;
            long f = changed != null
                    ? changed.gpus()
                    : Math.max(0, all - n.allocated().gpus());
            totalFree += f;
            if (f > 0 && f < all) {
                fragmented++;
            }
            if (changed != null) {
                leftOnTouched += f;
            }
        }
        return policy == Planner.Policy.BIN_PACK ? fragmented * 1_000_000 + leftOnTouched : -totalFree;
    }

    /** Why the pod does not fit, with the numbers a user can act on. */
    private static String whyNot(Pod p, List<Pod> all, ClusterState c, Map<String, ResourceList> free, long countHint) {
        PodDemand d = p.demand;
        List<NodeState> eligible =
                c.nodes().stream().filter(n -> NodeFilter.eligible(d, n)).toList();
        String what = d.component() + (d.instance().equals(d.component()) ? "" : "/" + d.instance());
        if (eligible.isEmpty()) {
            long ready =
                    c.nodes().stream().filter(n -> n.ready() && n.schedulable()).count();
            return "no node can run " + what + ": " + ready + " of " + c.nodes().size()
                    + " nodes are ready and schedulable, none of them "
                    + (d.constraints().nodeSelector().isEmpty()
                            ? ""
                            : "has labels " + format(d.constraints().nodeSelector()) + " or ")
                    + "passes its node affinity and tolerations";
        }
        long same = countHint >= 0
                ? countHint
                : all.stream().filter(o -> o.demand == d).count();
        long gpus = d.perPod().gpus();
        String product = d.gpuProduct().isEmpty() ? "" : " " + d.gpuProduct();
        if (gpus > 0) {
            long largest =
                    eligible.stream().mapToLong(n -> n.free().gpus()).max().orElse(0);
            long totalFree = eligible.stream().mapToLong(n -> n.free().gpus()).sum();
            long room = eligible.stream().mapToLong(n -> n.free().gpus() / gpus).sum();
            return "needs " + same + " pods × " + gpus + " GPUs" + product + " (" + what + "); largest free block "
                    + largest + " on " + eligible.size() + " ready nodes, room for " + room + " such pods ("
                    + totalFree + " GPUs free in all)";
        }
        List<String> short_ = new ArrayList<>();
        for (Map.Entry<String, BigDecimal> e : p.request.amounts().entrySet()) {
            BigDecimal most = eligible.stream()
                    .map(n -> free.getOrDefault(n.name(), n.free()).get(e.getKey()))
                    .max(BigDecimal::compareTo)
                    .orElse(BigDecimal.ZERO);
            if (most.compareTo(e.getValue()) < 0) {
                short_.add(e.getKey() + " " + Quantity.format(e.getValue()) + " (most free on one node: "
                        + Quantity.format(most) + ")");
            }
        }
        return "needs " + same + " pods (" + what + ") each with " + String.join(", ", short_) + " on "
                + eligible.size() + " ready nodes";
    }

    private static String format(Map<String, String> m) {
        return m.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
