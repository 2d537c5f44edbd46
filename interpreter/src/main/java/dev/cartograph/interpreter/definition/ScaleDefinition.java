package dev.cartograph.interpreter.definition;

import dev.cartograph.interpreter.jq.JqExpression;
import java.util.Optional;

/** {@code scaleDefinition}: where a component's replica counts are. Immutable. */
public record ScaleDefinition(
        Optional<JqExpression> replicasPath,
        Optional<JqExpression> minReplicasPath,
        Optional<JqExpression> maxReplicasPath) {}
