package dev.cartograph.mock.fleet;

import dev.cartograph.mock.admission.AdmissionRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One simulated member cluster: its name, its labels (cluster labels, not node labels), its
 * node pools and the creates and updates its API server refuses ({@code admission}, as a validating
 * webhook would). Immutable.
 */
public record ClusterProfile(
        String name, Map<String, String> labels, List<NodePool> nodePools, List<AdmissionRule> admission) {

    public ClusterProfile {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        nodePools = List.copyOf(nodePools);
        admission = List.copyOf(admission);
    }

    /** A cluster that admits everything. */
    public ClusterProfile(String name, Map<String, String> labels, List<NodePool> nodePools) {
        this(name, labels, nodePools, List.of());
    }

    /** This cluster, its API server refusing what {@code rules} deny (in place of its own rules). */
    public ClusterProfile withAdmission(List<AdmissionRule> rules) {
        return new ClusterProfile(name, labels, nodePools, rules);
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
