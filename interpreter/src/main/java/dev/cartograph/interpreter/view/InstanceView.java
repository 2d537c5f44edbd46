package dev.cartograph.interpreter.view;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One instance of a component (a replicated job, a worker group, a clique): its scale, the pod
 * template its pods are made from, and what each pod asks for. Immutable; the JSON parts are the
 * resolver's own copies and must not be modified.
 *
 * @param podTemplate  {@code {metadata, spec}} as the definition locates or assembles it; empty
 *                     for components that only group others
 * @param perPod       the effective request of one pod
 * @param nodeSelector the pod spec's node selector
 * @param affinity     the pod spec's affinity (null node when none)
 */
public record InstanceView(
        String id,
        Replicas replicas,
        Optional<JsonNode> podTemplate,
        ResourceList perPod,
        Map<String, String> nodeSelector,
        JsonNode affinity,
        List<JsonNode> tolerations,
        Optional<String> priorityClassName,
        Optional<String> schedulerName) {

    public InstanceView {
        nodeSelector = Map.copyOf(nodeSelector);
        tolerations = List.copyOf(tolerations);
    }

    /** True when this instance makes pods (it has a pod template). */
    public boolean hasPods() {
        return podTemplate.isPresent();
    }
}
