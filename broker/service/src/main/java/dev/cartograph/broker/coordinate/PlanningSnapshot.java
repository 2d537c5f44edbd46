package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.GpuBudget;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.Planner.Policy;
import dev.cartograph.placement.PlanningFleet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What one scheduling cycle plans against: the fleet's free capacity as a planning view, taken when first needed and
 * taken again after each placement booked nodes, and the one call of the broker's core to the {@link Planner}. It
 * remembers against which view each waiting ask was tested, so an ask is tested again only when something was placed
 * since. {@code scope} limits the asks' tests to the clusters whose capacity changed (every cluster when null);
 * gangs are always planned against the whole fleet. One cycle only; coordinator thread only.
 */
final class PlanningSnapshot {
    private final Fleet fleet;
    private final Policy policy;
    private final Instant now;
    private final Duration heartbeatTimeout;
    private final Set<String> scope;
    private final Map<PlacementQueue.Group, Integer> testedAt = new HashMap<>();
    private PlanningFleet planning;
    private PlanningFleet inScope;
    private int version;
    private long testingNanos;

    PlanningSnapshot(Fleet fleet, Policy policy, Instant now, Duration heartbeatTimeout, Set<String> scope) {
        this.fleet = fleet;
        this.policy = policy;
        this.now = now;
        this.heartbeatTimeout = heartbeatTimeout;
        this.scope = scope;
    }

    /** The whole fleet as the planner sees it now. */
    PlanningFleet fleet() {
        if (planning == null) {
            planning = fleet.planning(now, heartbeatTimeout);
            inScope = scope == null
                    ? planning
                    : new PlanningFleet(planning.clusters().stream()
                            .filter(c -> scope.contains(c.name()))
                            .toList());
        }
        return planning;
    }

    /** Plans a gang on some clusters of this view, under the broker's policy, within a queue's budget. */
    Decision plan(DemandCache.Asked.Gang gang, PlanningFleet clusters, GpuBudget budget) {
        return Planner.plan(gang.pods(), gang.clusterSelector(), clusters, policy, budget, gang.topology());
    }

    /**
     * Whether a waiting ask fits some cluster in scope now, within its queue's budget (the planner refuses a cluster
     * short of GPU blocks before placing any pod, so testing is cheap).
     */
    boolean fits(PlacementQueue.Group ask, GpuBudget budget) {
        long start = System.nanoTime();
        try {
            fleet();
            testedAt.put(ask, version);
            return !inScope.clusters().isEmpty() && plan(ask.ask(), inScope, budget) instanceof Decision.Placed;
        } finally {
            testingNanos += System.nanoTime() - start;
        }
    }

    /** Whether an ask tested in this cycle was tested against the view as it is now (nothing placed since). */
    boolean testedNow(PlacementQueue.Group ask) {
        return testedAt.getOrDefault(ask, -1) == version;
    }

    /** Something booked nodes (or may have): the next plan is made on what is left. */
    void taken() {
        planning = null;
        version++;
    }

    /** Time spent testing asks (the planning views they needed included), for benchmarks. */
    long testingNanos() {
        return testingNanos;
    }
}
