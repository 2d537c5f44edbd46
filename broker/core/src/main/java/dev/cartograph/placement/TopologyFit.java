package dev.cartograph.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        if (topology.none()) {
            return GangFit.attempt(needs, selector, c, policy, budget, beat, beatName, Within.ALL);
        }
        java.util.Optional<GangFit.Attempt> refused = GangFit.refusal(needs, selector, c, policy, beat, beatName);
        if (refused.isPresent()) {
            return refused.get(); // refused (or cannot beat the best) even unconstrained: no domain would do better
        }
        String level = topology.level();
        List<Domain> domains = Domain.of(c.capacity(), topology, needs);
        long gpus = 0;
        long largestPod = 0;
        for (Need n : needs) {
            if (topology.binds(n.demand()) && n.demand().count() > 0) {
                gpus += n.gpus() * n.demand().count();
                largestPod = Math.max(largestPod, n.gpus());
            }
        }
        for (Domain d : domains) {
            if (!d.mayHold(gpus, largestPod)) {
                continue; // too few GPUs free there: not worth planning the gang in it
            }
            GangFit.Attempt a = GangFit.attempt(
                    needs, selector, c, policy, budget, beat, beatName, Within.domains(topology, List.of(d)));
            if (a.fits()) {
                return a.in("in " + level + "=" + d.value(), Map.of(level, d.value()));
            }
        }
        if (topology.required()) { // it passed the cluster's checks: what it lacks is a domain that holds it
            return GangFit.Attempt.no(Domain.noneHolds(topology, needs, domains));
        }
        List<Domain> largest = domains.stream().sorted(Domain.LARGEST_FIRST).toList();
        List<Domain> taken = new ArrayList<>();
        long free = 0;
        for (Domain d : largest) {
            taken.add(d);
            free += d.freeGpus();
            if (taken.size() < 2 || free < gpus) {
                continue;
            }
            GangFit.Attempt a = GangFit.attempt(
                    needs, selector, c, policy, budget, beat, beatName, Within.domains(topology, taken));
            if (a.fits()) {
                return a.in(
                        "across " + taken.size() + " " + level + " domains ("
                                + String.join(
                                        ", ", taken.stream().map(Domain::value).toList()) + ")",
                        Map.of());
            }
        }
        GangFit.Attempt anywhere = GangFit.attempt(needs, selector, c, policy, budget, beat, beatName, Within.ALL);
        return anywhere.fits()
                ? anywhere.in("(no " + level + " domains hold it: " + domains.size() + " domains)", Map.of())
                : anywhere;
    }
}
