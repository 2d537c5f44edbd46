package dev.cartograph.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Whether a whole gang fits one cluster, where, and how good that is under the policy. A cluster short
 * of room for some demand by GPUs alone is refused before any pod is placed; otherwise pods are
 * placed largest first, each on the node the policy prefers ({@link Ask#best}); under bin packing the
 * chosen node stays the best for the next pod of the same demand while it has room, so it is given as
 * many as fit at once. Capacity is taken tentatively ({@link Tentative}); the index is only read.
 * Writer thread.
 */
final class GangFit {
    private GangFit() {}

    /** {@code pods} consecutive pods of one demand on one node. */
    record Run(PodDemand demand, String node, long pods) {}

    /**
     * The outcome on one cluster: runs of pods per node (null when it does not fit), why, and a score
     * (lower is better). {@code pruned}: not planned in full because even its best possible score
     * ({@code score}, a lower bound) could not beat a cluster already planned.
     */
    record Attempt(List<Run> runs, String reason, long score, boolean pruned, Map<String, String> pin) {
        Attempt(List<Run> runs, String reason, long score, boolean pruned) {
            this(runs, reason, score, pruned, Map.of());
        }

        boolean fits() {
            return runs != null;
        }

        static Attempt no(String reason) {
            return new Attempt(null, reason, Long.MAX_VALUE, false);
        }

        /** The same fit, kept in a domain: {@code pin} (label → value) names it, {@code where} says so. */
        Attempt in(String where, Map<String, String> pin) {
            return new Attempt(runs, reason + " " + where, score, pruned, Map.copyOf(pin));
        }

        /** Every pod's node, by component, instance and pod index. */
        List<Decision.Assignment> assignments() {
            List<Run> ordered = new ArrayList<>(runs); // a stable sort keeps each demand's runs in pod order
            ordered.sort(Comparator.comparing((Run r) -> r.demand().component())
                    .thenComparing(r -> r.demand().instance()));
            List<Decision.Assignment> out = new ArrayList<>();
            PodDemand current = null;
            int index = 0;
            for (Run r : ordered) {
                if (r.demand() != current) {
                    current = r.demand();
                    index = 0;
                }
                for (long i = 0; i < r.pods(); i++) {
                    out.add(new Decision.Assignment(
                            r.demand().component(), r.demand().instance(), index++, r.node()));
                }
            }
            return out;
        }
    }

    /** GPUs per model ({@code nvidia.com/gpu.product} of the nodes) the runs take. */
    static Map<String, Long> gpusByModel(List<Run> runs, ClusterCapacity capacity) {
        Map<String, Long> out = new java.util.HashMap<>();
        for (Run r : runs) {
            long gpus = r.demand().perPod().gpus() * r.pods();
            if (gpus > 0) {
                out.merge(capacity.slot(r.node()).node().gpuProduct(), gpus, Long::sum);
            }
        }
        return out;
    }

    /**
     * The lowest score the gang could get on the cluster. Bin packing: each node placed on changes
     * whether it is left part-used at most once, pods without GPUs change no node's GPUs, and the gang's
     * GPU pods touch at most as many nodes as there are of them, so at least (part-used nodes now − GPU
     * pods) remain. Spread: the score is exactly minus the GPUs
     * left free, whichever nodes take the pods.
     */
    static long lowerBound(List<Need> demand, ClusterCapacity capacity, Planner.Policy policy) {
        long pods = 0;
        long gpus = 0;
        for (Need n : demand) {
            if (n.gpus() > 0) {
                pods += n.demand().count();
                gpus += n.gpus() * n.demand().count();
            }
        }
        return policy == Planner.Policy.BIN_PACK
                ? Math.max(0, capacity.fragmented() - pods) * 1_000_000
                : -(capacity.freeGpus() - gpus);
    }

    /** The quick checks' outcome: a refusal (or a cluster not planned in full), else the asks to place with. */
    private record Checked(List<Ask> asks, long pods, Attempt refusal) {}

    /**
     * The checks made before any pod is placed — readiness, cluster selector, a node for every demand, room by GPUs,
     * room in all, and whether the cluster could beat {@code beat} — as {@link #attempt} makes them: the attempt that
     * refuses (or does not plan) the gang, or empty when it would be planned in full.
     */
    static java.util.Optional<Attempt> refusal(
            List<Need> demand,
            Map<String, String> selector,
            PlanningCluster c,
            Planner.Policy policy,
            long beat,
            String beatName) {
        return java.util.Optional.ofNullable(
                check(demand, selector, c, policy, beat, beatName, Within.ALL).refusal());
    }

    private static Checked check(
            List<Need> demand,
            Map<String, String> selector,
            PlanningCluster c,
            Planner.Policy policy,
            long beat,
            String beatName,
            Within within) {
        if (!c.ready()) {
            return refused(Attempt.no("cluster is not ready (no recent heartbeat from its agent)"));
        }
        if (!NodeFilter.selects(selector, c.labels())) {
            return refused(Attempt.no("cluster labels do not match the cluster selector " + Reasons.format(selector)));
        }
        ClusterCapacity capacity = c.capacity();
        List<Ask> asks = new ArrayList<>();
        long pods = 0;
        for (Need need : demand) {
            Ask a = new Ask(need, capacity, within);
            PodDemand d = need.demand();
            if (d.count() > 0 && (a.noNode() || need.gpus() > 0 && !a.roomForByGpus(d.count()))) {
                return refused(Attempt.no(Reasons.whyNot(a, capacity, null)));
            }
            java.util.Optional<String> short_ = d.count() > 0 ? a.shortInAll(d.count()) : java.util.Optional.empty();
            if (short_.isPresent()) {
                return refused(Attempt.no(short_.get()));
            }
            asks.add(a);
            pods += d.count();
        }
        long bound = lowerBound(demand, capacity, policy);
        if (beatName != null && (bound > beat || bound == beat && c.name().compareTo(beatName) > 0)) {
            return refused(new Attempt(null, "", bound, true));
        }
        return new Checked(asks, pods, null);
    }

    private static Checked refused(Attempt refusal) {
        return new Checked(List.of(), 0, refusal);
    }

    /**
     * The gang on one cluster. When the cluster passes the quick checks but its {@link #lowerBound}
     * cannot beat {@code beat} (the best score so far, of cluster {@code beatName}; ties go to the
     * name first in order), it is not planned in full.
     */
    static Attempt attempt(
            List<Need> demand,
            Map<String, String> selector,
            PlanningCluster c,
            Planner.Policy policy,
            GpuBudget budget,
            long beat,
            String beatName,
            Within within) {
        Checked checked = check(demand, selector, c, policy, beat, beatName, within);
        if (checked.refusal() != null) {
            return checked.refusal();
        }
        ClusterCapacity capacity = c.capacity();
        List<Ask> asks = checked.asks();
        long pods = checked.pods();
        asks.sort(Comparator.comparing((Ask a) -> a.need, Need.ORDER));
        boolean pack = policy == Planner.Policy.BIN_PACK;
        Tentative t = new Tentative(capacity);
        List<String> earlier = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        for (Ask a : asks) {
            List<String> mine = new ArrayList<>();
            long index = 0;
            while (index < a.demand.count()) {
                String node = a.best(policy, t, pack ? earlier : t.touchedNames());
                if (node == null) {
                    return Attempt.no(Reasons.whyNot(a, capacity, t));
                }
                if (t.touched(node) == null) {
                    mine.add(node);
                }
                Touched n = t.take(capacity.slot(node));
                long many = pack ? Math.min(a.demand.count() - index, n.room(a.need)) : 1;
                t.take(n, a.need, many);
                runs.add(new Run(a.demand, node, many));
                index += many;
            }
            earlier.addAll(mine);
        }
        if (!budget.unlimited()) {
            java.util.Optional<String> over = budget.exceeded(gpusByModel(runs, capacity));
            if (over.isPresent()) {
                return Attempt.no(over.get());
            }
        }
        long score = pack ? t.fragmented() * 1_000_000 + t.leftOnTouched() : -t.freeGpus();
        return new Attempt(
                runs, "fits: " + pods + " pods on " + t.touchedNames().size() + " nodes", score, false);
    }
}
