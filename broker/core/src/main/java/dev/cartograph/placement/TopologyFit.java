package dev.cartograph.placement;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gang on one cluster under its {@link GangTopology}. Without one, or when the gang does not fit the cluster at all,
 * this is {@link GangFit} as it is. Otherwise the gang's bound pods are tried in one domain at a time, the fullest
 * first (fewest GPUs free), and the first that holds them is taken — a gang packs into the fullest domain that fits,
 * so large domains stay whole for gangs that need them; the attempt names the domain and pins its pods to it. When no
 * single domain holds them: a required request does not fit the cluster (the reason names the domains' sizes); a
 * preferred one takes the fewest domains, largest first, and at worst the cluster as a whole. Writer thread.
 */
final class TopologyFit {
    private TopologyFit() {}

    static GangFit.Attempt attempt(
            List<Need> needs,
            Map<String, String> selector,
            PlanningCluster c,
            Planner.Policy policy,
            GpuBudget budget,
            long beat,
            String beatName,
            GangTopology topology) {
        GangFit.Attempt anywhere = GangFit.attempt(needs, selector, c, policy, budget, beat, beatName, Within.ALL);
        if (topology.none() || !anywhere.fits()) {
            return anywhere; // does not fit (or cannot beat the best) even unconstrained: no domain would do better
        }
        String level = topology.level();
        List<Domain> domains = Domain.of(c.capacity(), topology, needs);
        for (Domain d : domains) {
            GangFit.Attempt a = GangFit.attempt(
                    needs, selector, c, policy, budget, beat, beatName, Within.domains(topology, Set.of(d.value())));
            if (a.fits()) {
                return a.in("in " + level + "=" + d.value(), Map.of(level, d.value()));
            }
        }
        if (topology.required()) {
            return GangFit.Attempt.no(Domain.noneHolds(topology, needs, domains));
        }
        List<Domain> largest = domains.stream().sorted(Domain.LARGEST_FIRST).toList();
        Set<String> taken = new LinkedHashSet<>();
        for (Domain d : largest) {
            taken.add(d.value());
            if (taken.size() < 2) {
                continue;
            }
            GangFit.Attempt a = GangFit.attempt(
                    needs, selector, c, policy, budget, beat, beatName, Within.domains(topology, taken));
            if (a.fits()) {
                return a.in(
                        "across " + taken.size() + " " + level + " domains (" + String.join(", ", taken) + ")",
                        Map.of());
            }
        }
        return anywhere.in("(no " + level + " domains hold it: " + domains.size() + " domains)", Map.of());
    }
}
