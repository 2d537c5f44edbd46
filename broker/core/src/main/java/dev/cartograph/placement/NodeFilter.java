package dev.cartograph.placement;

import dev.cartograph.protocol.NodeState;
import java.util.Map;

/**
 * Whether a pod may run on a node at all, by the scheduler's rules: the node is ready and not
 * cordoned, and the pod's {@link dev.cartograph.interpreter.scheduling.NodeConstraints} (selector,
 * required affinity, taints) admit it. Pure.
 */
final class NodeFilter {
    private NodeFilter() {}

    static boolean eligible(PodDemand pod, NodeState node) {
        return node.ready()
                && node.schedulable()
                && pod.constraints().admits(node.name(), node.labels(), node.taints());
    }

    /** Every entry of {@code selector} is among {@code labels} (a cluster selector over a cluster's labels). */
    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
