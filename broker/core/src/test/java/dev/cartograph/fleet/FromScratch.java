package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterState;
import dev.cartograph.protocol.ClusterSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** For tests: the planning view worked out afresh from a snapshot's summaries and reservations, sharing no state kept by {@link Fleet}. */
public final class FromScratch {
    private FromScratch() {}

    public static List<ClusterState> planning(FleetSnapshot s, Instant now, Duration timeout) {
        List<ClusterState> out = new ArrayList<>();
        for (ClusterSummary c : s.clusters().values()) {
            Map<String, ResourceList> reserved = new HashMap<>();
            for (Reservation r : s.reservations().values()) {
                if (r.cluster().equals(c.cluster())) {
                    r.perNode().forEach((node, amount) -> reserved.merge(node, amount, ResourceList::plus));
                }
            }
            out.add(new ClusterState(
                    c.cluster(),
                    c.labels(),
                    s.ready(c.cluster(), now, timeout),
                    ReservedCapacity.apply(c.nodes(), reserved)));
        }
        return out;
    }
}
