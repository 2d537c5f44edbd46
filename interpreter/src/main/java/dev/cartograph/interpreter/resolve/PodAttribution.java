package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.PodSelectorDefinition;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.jq.JqResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Attributes a live pod of a workload to its component, instance and replica by the definition's
 * pod selectors, as Workload Map does: the only pod-making component takes every pod; otherwise
 * the first whose {@code componentTypeSelector} holds. Pure and thread-safe.
 */
public final class PodAttribution {
    private PodAttribution() {}

    /** Where a pod belongs: component, and instance id and replica key when the definition says. */
    public record Attributed(String component, Optional<String> instance, Optional<String> replica) {}

    public static Optional<Attributed> attribute(WorkloadDefinition definition, JsonNode pod) {
        List<ComponentDefinition> podMaking = definition.components().stream()
                .filter(c -> c.spec().isPresent())
                .toList();
        Optional<ComponentDefinition> component = podMaking.size() == 1
                ? Optional.of(podMaking.get(0))
                : podMaking.stream().filter(c -> typeMatches(c, pod)).findFirst();
        return component.map(c -> new Attributed(
                c.name(),
                c.podSelector().flatMap(PodSelectorDefinition::instanceIdPath).flatMap(p -> text(p, pod)),
                replica(definition, c, pod)));
    }

    private static boolean typeMatches(ComponentDefinition c, JsonNode pod) {
        Optional<PodSelectorDefinition.TypeSelector> selector =
                c.podSelector().flatMap(PodSelectorDefinition::componentType);
        if (selector.isEmpty()) {
            return false;
        }
        PodSelectorDefinition.TypeSelector s = selector.get();
        JsonNode labels = pod.path("metadata").path("labels");
        for (Map.Entry<String, String> e : s.matchLabels().entrySet()) {
            if (!e.getValue().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        if (s.keyPath().isEmpty()) {
            return true;
        }
        Optional<String> key = text(s.keyPath().get(), pod);
        return s.value().map(v -> key.filter(v::equals).isPresent()).orElse(key.isPresent());
    }

    /** The replica key from the component's own replicaSelector, or the nearest owner's. */
    private static Optional<String> replica(WorkloadDefinition d, ComponentDefinition c, JsonNode pod) {
        Optional<ComponentDefinition> current = Optional.of(c);
        while (current.isPresent()) {
            Optional<JqExpression> key = current.get().podSelector().flatMap(PodSelectorDefinition::replicaKeyPath);
            if (key.isPresent()) {
                return text(key.get(), pod);
            }
            current = current.get().ownerRef().flatMap(d::component);
        }
        return Optional.empty();
    }

    private static Optional<String> text(JqExpression e, JsonNode pod) {
        JqResult r = e.evaluate(pod);
        return r.first()
                .filter(v -> !v.isNull() && !v.isContainerNode())
                .map(JsonNode::asText)
                .filter(s -> !s.isEmpty());
    }
}
