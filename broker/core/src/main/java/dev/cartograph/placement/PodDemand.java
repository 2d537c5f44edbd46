package dev.cartograph.placement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code count} identical pods of one component instance that must all be placed: what each
 * requests and where it may run (node selector, required node affinity, tolerations). Immutable.
 *
 * @param requiredAffinity the pod's {@code nodeSelectorTerms} (any term may hold; all expressions of a term must)
 */
public record PodDemand(String component, String instance, int count, ResourceList perPod, Map<String, String> nodeSelector,
                        List<JsonNode> requiredAffinity, List<JsonNode> tolerations) {
    public PodDemand {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(instance, "instance");
        if (count < 0) {
            throw new IllegalArgumentException("count cannot be negative");
        }
        Objects.requireNonNull(perPod, "perPod");
        nodeSelector = Map.copyOf(nodeSelector);
        requiredAffinity = List.copyOf(requiredAffinity);
        tolerations = List.copyOf(tolerations);
    }

    /** The GPU product the pod asks for by node selector, if any. */
    public String gpuProduct() {
        return nodeSelector.getOrDefault(dev.cartograph.protocol.NodeState.GPU_PRODUCT, "");
    }
}
