package dev.cartograph.interpreter.view;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One instance of a component (a replicated job, a worker group, a clique): its scale, the pod
 * template its pods are made from, what each pod asks for and which nodes it may run on. Immutable;
 * the pod template is the resolver's own copy and must not be modified.
 *
 * @param podTemplate  {@code {metadata, spec}} as the definition locates or assembles it; empty
 *                     for components that only group others
 * @param perPod       the effective request of one pod
 * @param constraints  the pod spec's node selector, required node affinity and tolerations
 * @param specField    where the pod spec is in the object ({@code spec.replicatedJobs[0].template.spec.template.spec}),
 *                     when the definition locates it by a path; empty when it assembles the template from fragments
 * @param metadataField where the pod template's metadata is in the object, likewise
 */
public record InstanceView(
        String id,
        Replicas replicas,
        Optional<JsonNode> podTemplate,
        ResourceList perPod,
        NodeConstraints constraints,
        Optional<String> priorityClassName,
        Optional<String> schedulerName,
        Optional<String> specField,
        Optional<String> metadataField) {

    public InstanceView {
        Objects.requireNonNull(constraints, "constraints");
        Objects.requireNonNull(specField, "specField");
        Objects.requireNonNull(metadataField, "metadataField");
    }

    /** The pod spec's node selector. */
    public Map<String, String> nodeSelector() {
        return constraints.nodeSelector();
    }

    /** True when this instance makes pods (it has a pod template). */
    public boolean hasPods() {
        return podTemplate.isPresent();
    }
}
