package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.GangTopology;
import dev.cartograph.placement.TopologyAsks;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord.Pin;
import java.util.Map;

/**
 * How a member keeps a placed gang's pods in the topology domain the broker chose for it. By default the broker pins
 * them: the domain's label goes into the node selector of the pod templates the request binds. A member whose own
 * scheduler places by topology says so with the cluster label {@value #SCHEDULER_LABEL} (its agent's cluster labels):
 * {@code kueue} (Kueue's topology-aware scheduling) gets Kueue's pod set annotation for the level instead, {@code kai}
 * (KAI Scheduler) the workload annotations {@code kai.scheduler/topology} (the Topology object named by the cluster
 * label {@value #KAI_TOPOLOGY_LABEL}, without which the broker pins as by default) and the required or preferred
 * placement. Either way the gang is only placed on a cluster with a domain that holds it. Pure.
 */
final class MemberTopology {
    static final String SCHEDULER_LABEL = MetadataKeys.PREFIX + "topology-scheduler";
    static final String KAI_TOPOLOGY_LABEL = MetadataKeys.PREFIX + "kai-topology";

    private MemberTopology() {}

    /** The pin for a gang placed as decided, on its cluster as the fleet last heard of it. */
    static Pin of(Fleet fleet, DemandCache.Asked.Gang gang, Decision.Placed placed) {
        Map<String, String> labels =
                fleet.summary(placed.cluster()).map(ClusterSummary::labels).orElse(Map.of());
        return of(labels, gang.topology(), placed.pin());
    }

    /** @param domain the planner's pin (the domain's label and value); empty when no domain was chosen */
    static Pin of(Map<String, String> clusterLabels, GangTopology topology, Map<String, String> domain) {
        if (domain.isEmpty() || topology.none()) {
            return Pin.NONE;
        }
        String level = topology.level();
        boolean required = topology.required();
        switch (clusterLabels.getOrDefault(SCHEDULER_LABEL, "")) {
            case "kueue" -> {
                return new Pin(
                        Map.of(),
                        topology.components(),
                        Map.of(required ? TopologyAsks.KUEUE_REQUIRED : TopologyAsks.KUEUE_PREFERRED, level),
                        Map.of());
            }
            case "kai" -> {
                String kaiTopology = clusterLabels.getOrDefault(KAI_TOPOLOGY_LABEL, "");
                if (!kaiTopology.isEmpty()) {
                    return new Pin(
                            Map.of(),
                            topology.components(),
                            Map.of(),
                            Map.of(
                                    "kai.scheduler/topology",
                                    kaiTopology,
                                    required
                                            ? "kai.scheduler/topology-required-placement"
                                            : "kai.scheduler/topology-preferred-placement",
                                    level));
                }
            }
            default -> {}
        }
        return new Pin(domain, topology.components());
    }
}
