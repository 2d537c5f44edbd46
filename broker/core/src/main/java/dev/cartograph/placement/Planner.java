package dev.cartograph.placement;

import dev.cartograph.protocol.ClusterState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places a whole gang on one cluster: every pod must get a node with room for it at the same
 * time, on real per-node free capacity (a cluster with 12 free GPUs spread 3 per node cannot take
 * two 4-GPU pods). Pods are placed largest first; each goes to the node that best fits the policy;
 * of the clusters where the gang fits, the best score wins (ties by name). Works on each cluster's
 * {@link ClusterCapacity} index, so a decision costs in proportion to clusters, kinds of node and
 * pods, not nodes; its answers are those of scanning every node (PlannerEquivalenceTest), except
 * that a cluster which cannot beat the chosen one is not planned in full.
 * Deterministic for equal inputs; planning against the fleet's own indexes belongs to its writer
 * thread.
 */
public final class Planner {
    /** BIN_PACK keeps whole nodes free (least GPU fragmentation left behind); SPREAD leaves the most free. */
    public enum Policy {
        BIN_PACK,
        SPREAD
    }

    private Planner() {}

    /** Plans against clusters given as node lists (indexes them first: one pass over every node). Pure. */
    public static Decision plan(
            List<PodDemand> demand, Map<String, String> clusterSelector, List<ClusterState> fleet, Policy policy) {
        return plan(demand, clusterSelector, PlanningFleet.of(fleet), policy);
    }

    /**
     * Plans against the clusters' capacity indexes. Clusters are planned in order of their lowest
     * possible score; one that cannot beat the best found so far is not planned in full, and its
     * verdict says so (it does not fit better, whether or not it fits at all).
     */
    public static Decision plan(
            List<PodDemand> demand, Map<String, String> clusterSelector, PlanningFleet fleet, Policy policy) {
        return plan(demand, clusterSelector, fleet, policy, GpuBudget.NONE);
    }

    /**
     * As {@link #plan(List, Map, PlanningFleet, Policy)}, where the gang may take no more GPUs of a model than
     * {@code budget} allows (its queue's quota): a cluster whose plan would is not chosen, its verdict says why.
     */
    public static Decision plan(
            List<PodDemand> demand,
            Map<String, String> clusterSelector,
            PlanningFleet fleet,
            Policy policy,
            GpuBudget budget) {
        return plan(demand, clusterSelector, fleet, policy, budget, GangTopology.NONE);
    }

    /**
     * As {@link #plan(List, Map, PlanningFleet, Policy, GpuBudget)}, keeping the gang's pods in one domain of a
     * topology level when it asks so ({@link TopologyFit}): the chosen cluster's domain is the decision's pin.
     */
    public static Decision plan(
            List<PodDemand> demand,
            Map<String, String> clusterSelector,
            PlanningFleet fleet,
            Policy policy,
            GpuBudget budget,
            GangTopology topology) {
        List<Need> needs = Need.of(demand);
        List<PlanningCluster> order = new ArrayList<>(fleet.clusters());
        Map<PlanningCluster, Long> bounds = new IdentityHashMap<>();
        for (PlanningCluster c : order) {
            bounds.put(c, GangFit.lowerBound(needs, c.capacity(), policy));
        }
        order.sort(Comparator.comparing((PlanningCluster c) -> bounds.get(c)).thenComparing(PlanningCluster::name));
        Map<String, GangFit.Attempt> attempts = new HashMap<>();
        String best = null;
        GangFit.Attempt chosen = null;
        for (PlanningCluster c : order) {
            GangFit.Attempt a = TopologyFit.attempt(
                    needs,
                    clusterSelector,
                    c,
                    policy,
                    budget,
                    chosen == null ? Long.MAX_VALUE : chosen.score(),
                    best,
                    topology);
            attempts.put(c.name(), a);
            if (a.fits()
                    && (chosen == null
                            || a.score() < chosen.score()
                            || a.score() == chosen.score() && c.name().compareTo(best) < 0)) {
                best = c.name();
                chosen = a;
            }
        }
        List<Decision.Verdict> verdicts = new ArrayList<>(order.size());
        for (PlanningCluster c : fleet.clusters()) {
            GangFit.Attempt a = attempts.get(c.name());
            verdicts.add(
                    a.pruned()
                            ? new Decision.Verdict(
                                    c.name(), false, notBetter(a.score(), best, chosen.score(), policy), a.score())
                            : new Decision.Verdict(c.name(), a.fits(), a.reason(), a.score()));
        }
        return best == null
                ? new Decision.Unschedulable(verdicts)
                : new Decision.Placed(best, chosen.assignments(), verdicts, chosen.pin());
    }

    /** Why a cluster was not planned in full. */
    static String notBetter(long bound, String best, long bestScore, Policy policy) {
        String what = policy == Policy.BIN_PACK
                ? "at least " + bound / 1_000_000 + " nodes would be left with part of their GPUs free"
                : (-bound) + " GPUs would be left free";
        return "not planned in full: " + what + " (score at least " + bound + "), no better than " + best + " (score "
                + bestScore + ")";
    }
}
