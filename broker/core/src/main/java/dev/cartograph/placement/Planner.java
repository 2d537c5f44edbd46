package dev.cartograph.placement;

import dev.cartograph.protocol.ClusterState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Places a whole gang on one cluster: every pod must get a node with room for it at the same
 * time, on real per-node free capacity (a cluster with 12 free GPUs spread 3 per node cannot take
 * two 4-GPU pods). Pods are placed largest first; each goes to the node that best fits the policy;
 * of the clusters where the gang fits, the best score wins (ties by name). Works on each cluster's
 * {@link ClusterCapacity} index, so a decision costs in proportion to clusters, kinds of node and
 * pods, not nodes; its answers are those of scanning every node (PlannerEquivalenceTest).
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

    public static Decision plan(
            List<PodDemand> demand, Map<String, String> clusterSelector, PlanningFleet fleet, Policy policy) {
        List<Decision.Verdict> verdicts = new ArrayList<>(fleet.clusters().size());
        String best = null;
        long bestScore = 0;
        GangFit.Attempt chosen = null;
        List<Need> needs = Need.of(demand);
        for (PlanningCluster c : fleet.clusters()) {
            GangFit.Attempt a = GangFit.attempt(needs, clusterSelector, c, policy);
            verdicts.add(new Decision.Verdict(c.name(), a.fits(), a.reason(), a.score()));
            if (a.fits() && (best == null || a.score() < bestScore)) { // clusters come in name order
                best = c.name();
                bestScore = a.score();
                chosen = a;
            }
        }
        return best == null
                ? new Decision.Unschedulable(verdicts)
                : new Decision.Placed(best, chosen.assignments(), verdicts);
    }
}
