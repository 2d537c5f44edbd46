package dev.cartograph.preemption;

import dev.cartograph.fairshare.QueueSpec;
import dev.cartograph.fairshare.QueueTree;
import dev.cartograph.fairshare.Quotas;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.GpuBudget;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PlanningCluster;
import dev.cartograph.placement.PlanningFleet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Who must make room for a waiting gang (ADR 0006): exactly one cluster and the smallest set of whole placed gangs
 * there without which the gang fits on that cluster's real free node capacity, within its queue's quota — or
 * nothing, when no cluster would take it even then (preemption never happens on speculation).
 *
 * <p>Who may be a victim depends on the gang's queue: {@code Never}, nobody; {@code ReclaimOnly}, gangs of other
 * queues while their queue borrows a GPU model the gang's queue has unused nominal quota of, and only while the gang's
 * queue stays within its nominal quota; {@code LowerPriority}, that and the gangs of lower priority of its own queue.
 * Candidates are taken in Kueue's order ({@code CandidatesOrdering}): not started first, then other queues before its
 * own, then the queue with the highest share, then lower priority, then the most recently placed. On each cluster
 * they are taken off in that order until the gang fits, then put back in reverse order while it still fits (Kueue's
 * fill-back). Of the clusters that give a set, the fewest victims wins, then the fewest GPUs, then the cluster name.
 * Pure: the fleet's indexes are read, never changed.
 */
public final class Preemption {
    /** How every victim's reason begins. */
    public static final String PREEMPTED_BY = "preempted by ";

    private Preemption() {}

    /** The cluster, the gang's plan there once the victims are gone, the victims and why each goes. */
    public record Plan(String cluster, Decision.Placed placed, List<Victim> victims, Map<String, String> reasons) {
        public Plan {
            victims = List.copyOf(victims);
            reasons = Map.copyOf(reasons);
        }

        /** GPUs the victims give back, of any model. */
        public long gpus() {
            return victims.stream().mapToLong(Victim::gpuCount).sum();
        }
    }

    /**
     * @param gang      the waiting gang
     * @param placed    the gangs placed now (the candidates are chosen among them)
     * @param clusters  the clusters the gang may go to, as planning sees them
     * @param tree      the queues
     * @param usage     GPUs per model each leaf queue's gangs hold now
     * @param fleetGpus GPUs per model on the fleet's ready clusters
     */
    public static Optional<Plan> plan(
            Preemptor gang,
            List<Victim> placed,
            PlanningFleet clusters,
            QueueTree tree,
            Map<String, Map<String, Long>> usage,
            Map<String, Long> fleetGpus,
            Planner.Policy policy) {
        Quotas now = new Quotas(tree, usage, fleetGpus);
        if (!mayPreempt(gang.queue(), tree, now)) {
            return Optional.empty();
        }
        QueueSpec.Preemption allowed =
                tree.queue(gang.queue()).map(QueueSpec::preemption).orElse(QueueSpec.Preemption.NEVER);
        Search search = new Search(gang, allowed, tree, now, usage, fleetGpus, policy);
        Map<String, List<Victim>> byCluster = search.candidates(placed);
        Plan best = null;
        for (PlanningCluster c : clusters.clusters()) {
            List<Victim> on = byCluster.get(c.name());
            if (on == null) {
                continue;
            }
            Optional<Plan> here = search.on(c, on);
            if (here.isPresent() && (best == null || BETTER.compare(here.get(), best) < 0)) {
                best = here.get();
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Whether a gang of the queue could preempt anyone now, before looking at who: its policy is {@code LowerPriority},
     * or it is {@code ReclaimOnly} and the queue uses less than its nominal quota of some model. Cheap: a waiting gang
     * asks on every attempt.
     */
    public static boolean mayPreempt(String queue, QueueTree tree, Quotas quotas) {
        QueueSpec.Preemption allowed =
                tree.queue(queue).map(QueueSpec::preemption).orElse(QueueSpec.Preemption.NEVER);
        return switch (allowed) {
            case NEVER -> false;
            case LOWER_PRIORITY -> true;
            case RECLAIM_ONLY ->
                tree.queue(queue).orElseThrow().nominal().keySet().stream()
                        .anyMatch(model -> quotas.nominal(queue, model) > quotas.inUse(queue, model));
        };
    }

    private static final Comparator<Plan> BETTER = Comparator.comparingInt(
                    (Plan p) -> p.victims().size())
            .thenComparingLong(Plan::gpus)
            .thenComparing(Plan::cluster);

    /** One gang's search: its queue, what the queues hold now, and the order of candidates. */
    private static final class Search {
        private final Preemptor gang;
        private final QueueSpec.Preemption allowed;
        private final QueueTree tree;
        private final Map<String, Map<String, Long>> usage;
        private final Map<String, Long> fleetGpus;
        private final Planner.Policy policy;
        private final Quotas now;

        Search(
                Preemptor gang,
                QueueSpec.Preemption allowed,
                QueueTree tree,
                Quotas now,
                Map<String, Map<String, Long>> usage,
                Map<String, Long> fleetGpus,
                Planner.Policy policy) {
            this.gang = gang;
            this.allowed = allowed;
            this.tree = tree;
            this.now = now;
            this.usage = usage;
            this.fleetGpus = fleetGpus;
            this.policy = policy;
        }

        /** The gangs that may be victims, per cluster, each cluster's in the order they are taken. */
        Map<String, List<Victim>> candidates(List<Victim> placed) {
            Map<String, Double> shares = new HashMap<>();
            Comparator<Victim> order = Comparator.comparing(Victim::started)
                    .thenComparing(v -> v.queue().equals(gang.queue()))
                    .thenComparing(v ->
                            -shares.computeIfAbsent(v.queue(), q -> now.share(q).value()))
                    .thenComparingInt(Victim::priority)
                    .thenComparing(Victim::placedAt, Comparator.reverseOrder())
                    .thenComparing(Victim::uid);
            Map<String, List<Victim>> out = new TreeMap<>();
            for (Victim v : placed) {
                if (tree.queue(v.queue()).isPresent() && (ownLower(v) || reclaimable(v, now))) {
                    out.computeIfAbsent(v.cluster(), k -> new ArrayList<>()).add(v);
                }
            }
            out.values().forEach(l -> l.sort(order));
            return out;
        }

        private boolean ownLower(Victim v) {
            return allowed == QueueSpec.Preemption.LOWER_PRIORITY
                    && v.queue().equals(gang.queue())
                    && v.priority() < gang.priority();
        }

        /** A gang of another queue that borrows a model the gang's queue has unused nominal quota of. */
        private boolean reclaimable(Victim v, Quotas q) {
            if (v.queue().equals(gang.queue())) {
                return false;
            }
            for (String model : v.gpus().keySet()) {
                if (q.borrowed(v.queue(), model) > 0 && q.nominal(gang.queue(), model) > q.inUse(gang.queue(), model)) {
                    return true;
                }
            }
            return false;
        }

        /** The smallest set of this cluster's candidates without which the gang fits here, if any. */
        Optional<Plan> on(PlanningCluster cluster, List<Victim> candidates) {
            FreedCluster freed = new FreedCluster(cluster);
            List<Victim> taken = new ArrayList<>();
            Decision.Placed fits = null;
            for (Victim v : candidates) {
                if (!ownLower(v) && !reclaimable(v, quotasWithout(taken))) {
                    continue; // its queue no longer borrows once those before it are gone
                }
                taken.add(v);
                freed.free(v);
                fits = attempt(freed, taken);
                if (fits != null) {
                    break;
                }
            }
            if (fits == null) {
                return Optional.empty();
            }
            for (int i = taken.size() - 2; i >= 0; i--) { // the last one taken was needed
                Victim v = taken.remove(i);
                freed.restore(v);
                Decision.Placed still = attempt(freed, taken);
                if (still != null) {
                    fits = still;
                } else {
                    taken.add(i, v);
                    freed.free(v);
                }
            }
            Map<String, String> reasons = new LinkedHashMap<>();
            for (Victim v : taken) {
                reasons.put(v.uid(), reason(v));
            }
            return Optional.of(new Plan(cluster.name(), fits, taken, reasons));
        }

        private Decision.Placed attempt(FreedCluster freed, List<Victim> without) {
            Decision d = Planner.plan(
                    gang.pods(), gang.clusterSelector(), freed.fleet(), policy, budget(without), gang.topology());
            return d instanceof Decision.Placed p ? p : null;
        }

        private Quotas quotasWithout(List<Victim> without) {
            if (without.isEmpty()) {
                return now;
            }
            Map<String, Map<String, Long>> left = new HashMap<>();
            usage.forEach((q, m) -> left.put(q, new HashMap<>(m)));
            for (Victim v : without) {
                Map<String, Long> q = left.computeIfAbsent(v.queue(), k -> new HashMap<>());
                v.gpus().forEach((model, n) -> q.merge(model, -n, Long::sum));
            }
            return new Quotas(tree, left, fleetGpus);
        }

        /**
         * What the gang may take once {@code without} are gone: its queue's budget then, and when any of them is of
         * another queue, no more than its queue's unused nominal quota (it takes back what it lent, nothing more).
         */
        private GpuBudget budget(List<Victim> without) {
            Quotas q = quotasWithout(without);
            GpuBudget budget = q.budget(gang.queue());
            if (without.stream().allMatch(v -> v.queue().equals(gang.queue()))) {
                return budget;
            }
            Map<String, GpuBudget.Limit> limits = new TreeMap<>(budget.limits());
            Set<String> models = new TreeSet<>(fleetGpus.keySet());
            models.addAll(q.models(gang.queue()));
            for (String model : models) {
                long nominal = q.nominal(gang.queue(), model);
                GpuBudget.Limit reclaim = new GpuBudget.Limit(
                        nominal - q.inUse(gang.queue(), model),
                        "queue " + gang.queue() + " reclaims only up to its nominal " + nominal);
                limits.merge(model, reclaim, (a, b) -> a.gpus() <= b.gpus() ? a : b);
            }
            return new GpuBudget(limits);
        }

        private String reason(Victim v) {
            if (v.queue().equals(gang.queue())) {
                return PREEMPTED_BY + gang.name() + " (priority " + gang.priority() + " over " + v.priority()
                        + " in queue " + gang.queue() + ")";
            }
            List<String> gpus = new ArrayList<>();
            new TreeMap<>(v.gpus()).forEach((model, n) -> gpus.add(n + " " + (model.isEmpty() ? "unlabelled" : model)));
            return PREEMPTED_BY + gang.name() + " (queue " + gang.queue() + " reclaiming " + String.join(", ", gpus)
                    + " lent to " + v.queue() + ")";
        }
    }
}
