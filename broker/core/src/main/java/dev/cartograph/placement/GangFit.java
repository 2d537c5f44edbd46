package dev.cartograph.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
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

    /** The outcome on one cluster: assignments (null when it does not fit), why, and a score (lower is better). */
    record Attempt(List<Decision.Assignment> assignments, String reason, long score) {
        boolean fits() {
            return assignments != null;
        }

        static Attempt no(String reason) {
            return new Attempt(null, reason, Long.MAX_VALUE);
        }
    }

    static Attempt attempt(List<Need> demand, Map<String, String> selector, PlanningCluster c, Planner.Policy policy) {
        if (!c.ready()) {
            return Attempt.no("cluster is not ready (no recent heartbeat from its agent)");
        }
        if (!NodeFilter.selects(selector, c.labels())) {
            return Attempt.no("cluster labels do not match the cluster selector " + Reasons.format(selector));
        }
        ClusterCapacity capacity = c.capacity();
        List<Ask> asks = new ArrayList<>();
        long pods = 0;
        for (Need need : demand) {
            Ask a = new Ask(need, capacity);
            PodDemand d = need.demand();
            if (d.count() > 0
                    && (a.noNode() || need.gpus() > 0 && a.gpuFigures().room() < d.count())) {
                return Attempt.no(Reasons.whyNot(a, capacity, null));
            }
            asks.add(a);
            pods += d.count();
        }
        asks.sort(Comparator.comparing((Ask a) -> a.need, Need.ORDER));
        boolean pack = policy == Planner.Policy.BIN_PACK;
        Tentative t = new Tentative(capacity);
        Map<Ask, List<Decision.Assignment>> placed = new IdentityHashMap<>();
        List<String> earlier = new ArrayList<>();
        for (Ask a : asks) {
            List<Decision.Assignment> out = new ArrayList<>(a.demand.count());
            placed.put(a, out);
            List<String> mine = new ArrayList<>();
            int index = 0;
            while (index < a.demand.count()) {
                String node = a.best(policy, t, pack ? earlier : t.touchedNames());
                if (node == null) {
                    return Attempt.no(Reasons.whyNot(a, capacity, t));
                }
                if (t.touched(node) == null) {
                    mine.add(node);
                }
                Touched n = t.take(capacity.slot(node));
                long many = pack ? Math.min(a.demand.count() - index, n.room(a.need.request(), a.need.gpus())) : 1;
                t.take(n, a.need.request(), many, a.need.gpus());
                for (long i = 0; i < many; i++) {
                    out.add(new Decision.Assignment(a.demand.component(), a.demand.instance(), index++, node));
                }
            }
            earlier.addAll(mine);
        }
        long score = pack ? t.fragmented() * 1_000_000 + t.leftOnTouched() : -t.freeGpus();
        List<Ask> byName = new ArrayList<>(asks);
        byName.sort(Comparator.comparing((Ask a) -> a.demand.component()).thenComparing(a -> a.demand.instance()));
        List<Decision.Assignment> all = new ArrayList<>((int) pods);
        for (Ask a : byName) {
            all.addAll(placed.get(a));
        }
        return new Attempt(all, "fits: " + pods + " pods on " + t.touchedNames().size() + " nodes", score);
    }
}
