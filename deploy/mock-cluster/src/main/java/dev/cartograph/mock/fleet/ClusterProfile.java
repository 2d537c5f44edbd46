package dev.cartograph.mock.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One simulated member cluster: its name, its labels (cluster labels, not node labels) and its
 * node pools. Immutable.
 */
public record ClusterProfile(String name, Map<String, String> labels, List<NodePool> nodePools) {

    public ClusterProfile {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        nodePools = List.copyOf(nodePools);
    }

    /** Every node, pool by pool, named {@code CLUSTER-POOL-INDEX}. */
    public List<SimulatedNode> nodes() {
        List<SimulatedNode> nodes = new ArrayList<>();
        for (NodePool pool : nodePools) {
            for (int i = 0; i < pool.count(); i++) {
                nodes.add(new SimulatedNode(
                        name + "-" + pool.name() + "-" + i,
                        pool,
                        i,
                        pool.usedGpus().get(i)));
            }
        }
        return List.copyOf(nodes);
    }

    /** GPUs free on each node, in {@link #nodes()} order. */
    public List<Integer> freeGpus() {
        return nodes().stream().map(SimulatedNode::freeGpus).toList();
    }
}
