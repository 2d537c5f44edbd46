package dev.cartograph.interpreter.definition;

import dev.cartograph.interpreter.jq.JqExpression;
import java.util.Map;
import java.util.Optional;

/**
 * {@code podSelector}: how a live pod is attributed to this component, its instance and replica.
 * All expressions are evaluated against the pod object. Immutable.
 */
public record PodSelectorDefinition(
        Optional<TypeSelector> componentType,
        Optional<JqExpression> instanceIdPath,
        Optional<JqExpression> replicaKeyPath) {

    /**
     * {@code componentTypeSelector}: with a {@code value}, the key must equal it; without, the key
     * must be present; every {@code matchLabels} entry must hold too.
     */
    public record TypeSelector(
            Optional<JqExpression> keyPath, Optional<String> value, Map<String, String> matchLabels) {
        public TypeSelector {
            matchLabels = Map.copyOf(matchLabels);
        }
    }
}
