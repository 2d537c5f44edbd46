package dev.cartograph.interpreter.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a pod spec says about the nodes it may run on: its node selector, the terms of its required
 * node affinity (any may hold) and its tolerations. Readiness, cordon and capacity are the node's
 * side and are for the caller. Immutable; thread-safe.
 *
 * @param requiredTerms {@code affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms};
 *                      empty when the pod has no required node affinity
 */
public record NodeConstraints(
        Map<String, String> nodeSelector, List<NodeSelectorTerm> requiredTerms, List<Toleration> tolerations) {
    /** A pod that may run on any node without taints that repel. */
    public static final NodeConstraints NONE = new NodeConstraints(Map.of(), List.of(), List.of());

    public NodeConstraints {
        nodeSelector = Map.copyOf(nodeSelector);
        requiredTerms = List.copyOf(requiredTerms);
        tolerations = List.copyOf(tolerations);
    }

    /** Only a node selector. */
    public static NodeConstraints selecting(Map<String, String> nodeSelector) {
        return new NodeConstraints(nodeSelector, List.of(), List.of());
    }

    /** The constraints of a pod spec ({@code spec} of a pod or pod template); missing parts are no constraint. */
    public static NodeConstraints of(JsonNode podSpec) {
        Map<String, String> selector = new LinkedHashMap<>();
        podSpec.path("nodeSelector")
                .fields()
                .forEachRemaining(e -> selector.put(e.getKey(), e.getValue().asText()));
        List<NodeSelectorTerm> terms = new ArrayList<>();
        podSpec.path("affinity")
                .path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution")
                .path("nodeSelectorTerms")
                .forEach(t -> terms.add(NodeSelectorTerm.of(t)));
        List<Toleration> tolerations = new ArrayList<>();
        podSpec.path("tolerations").forEach(t -> tolerations.add(Toleration.of(t)));
        return new NodeConstraints(selector, terms, tolerations);
    }

    /** Whether the node has every label of the node selector. */
    public boolean selects(Map<String, String> nodeLabels) {
        return nodeSelector.entrySet().stream().allMatch(e -> e.getValue().equals(nodeLabels.get(e.getKey())));
    }

    /** Whether the required node affinity holds: no terms, or any one term. */
    public boolean affinityHolds(Map<String, String> nodeLabels, String nodeName) {
        return requiredTerms.isEmpty() || requiredTerms.stream().anyMatch(t -> t.matches(nodeLabels, nodeName));
    }

    /** The first taint that repels (NoSchedule, NoExecute) and no toleration tolerates. */
    public Optional<Taint> untolerated(List<Taint> nodeTaints) {
        return nodeTaints.stream()
                .filter(Taint::repels)
                .filter(t -> tolerations.stream().noneMatch(tol -> tol.tolerates(t)))
                .findFirst();
    }

    /**
     * Whether the pod may run on the node by selector, affinity and taints. The planner asks this for
     * every pod and node it considers, so it is written as plain loops with early exits.
     */
    public boolean admits(String nodeName, Map<String, String> nodeLabels, List<Taint> nodeTaints) {
        for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
            if (!e.getValue().equals(nodeLabels.get(e.getKey()))) {
                return false;
            }
        }
        if (!requiredTerms.isEmpty() && !affinityHolds(nodeLabels, nodeName)) {
            return false;
        }
        for (Taint t : nodeTaints) {
            if (t.repels() && !tolerates(t)) {
                return false;
            }
        }
        return true;
    }

    private boolean tolerates(Taint taint) {
        for (Toleration t : tolerations) {
            if (t.tolerates(taint)) {
                return true;
            }
        }
        return false;
    }
}
