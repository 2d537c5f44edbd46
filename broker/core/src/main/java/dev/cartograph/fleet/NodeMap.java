package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One cluster's nodes as the dashboard's node map draws them, one cell a node: its GPU model, GPUs in all and free
 * (counted as {@link FleetReport} counts them: after bound pods and the broker's reservations, on a usable node
 * only), and its topology domains. Nodes are in domain order — by each configured level's value, widest first, then
 * by name — so that a domain's nodes stand together and fragmentation inside it shows. Pure; immutable.
 */
public record NodeMap(String cluster, boolean ready, List<String> levels, List<Cell> nodes) {
    public NodeMap {
        levels = List.copyOf(levels);
        nodes = List.copyOf(nodes);
    }

    /** One node. {@code domains}: level → value, for the levels whose label it has. */
    public record Cell(
            String name,
            String gpuModel,
            boolean usable,
            long gpus,
            long allocated,
            long reserved,
            long free,
            Map<String, String> domains) {
        public Cell {
            domains = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(domains));
        }
    }

    /** The node map of {@code cluster}; empty when it has not reported. */
    public static Optional<NodeMap> of(
            FleetSnapshot snapshot, String cluster, Instant now, Duration heartbeatTimeout, TopologyLevels levels) {
        ClusterSummary s = snapshot.clusters().get(cluster);
        if (s == null) {
            return Optional.empty();
        }
        boolean ready = snapshot.ready(cluster, now, heartbeatTimeout);
        Map<String, ResourceList> booked = NodeGpus.bookedPerNode(snapshot).getOrDefault(cluster, Map.of());
        List<Cell> cells = new ArrayList<>(s.nodes().size());
        for (NodeState n : s.nodes()) {
            NodeGpus g = NodeGpus.of(n, ready, booked.getOrDefault(n.name(), ResourceList.EMPTY));
            Map<String, String> domains = new LinkedHashMap<>();
            for (String level : levels.keys()) {
                String value = n.labels().get(level);
                if (value != null) {
                    domains.put(level, value);
                }
            }
            cells.add(new Cell(
                    n.name(), n.gpuProduct(), g.usable(), g.total(), g.allocated(), g.reserved(), g.free(), domains));
        }
        Comparator<Cell> order = Comparator.comparing((Cell c) -> 0);
        for (String level : levels.keys()) {
            order = order.thenComparing(c -> c.domains().getOrDefault(level, "\uffff")); // unlabelled last
        }
        cells.sort(order.thenComparing(Cell::name));
        return Optional.of(new NodeMap(cluster, ready, levels.keys(), cells));
    }
}
