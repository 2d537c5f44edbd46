package dev.cartograph.placement;

import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.interpreter.scheduling.NodeSelectorTerm;
import dev.cartograph.protocol.NodeState;
import java.util.Map;

/**
 * Whether a pod may run on a node at all, by the scheduler's rules: the node is ready and not
 * cordoned, and the pod's {@link NodeConstraints} (selector, required affinity, taints) admit it. Pure.
 */
final class NodeFilter {
    /** The one label that differs on every node; {@link NodeGroup}s are formed without it. */
    static final String HOSTNAME = "kubernetes.io/hostname";

    private NodeFilter() {}

    static boolean eligible(PodDemand pod, NodeState node) {
        return node.ready()
                && node.schedulable()
                && pod.constraints().admits(node.name(), node.labels(), node.taints());
    }

    /**
     * Whether the constraints name particular nodes (by hostname label or by {@code metadata.name});
     * if not, they admit every node of a {@link NodeGroup} or none of it.
     */
    static boolean namesNodes(NodeConstraints c) {
        if (c.nodeSelector().containsKey(HOSTNAME)) {
            return true;
        }
        for (NodeSelectorTerm t : c.requiredTerms()) {
            if (!t.matchFields().isEmpty()) {
                return true;
            }
            for (NodeSelectorTerm.Requirement r : t.matchExpressions()) {
                if (HOSTNAME.equals(r.key())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Every entry of {@code selector} is among {@code labels} (a cluster selector over a cluster's labels). */
    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
