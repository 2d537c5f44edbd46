package dev.cartograph.interpreter.definition;

import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.Optional;

/**
 * One component of a workload: a role that owns pods (when it has a spec) or groups other
 * components. Immutable.
 *
 * @param field where it stands in the definition, e.g. {@code spec.structureDefinition.childComponents[1]}
 */
public record ComponentDefinition(
        String name,
        Optional<GroupVersionKind> kind,
        Optional<String> ownerRef,
        Optional<SpecDefinition> spec,
        Optional<ScaleDefinition> scale,
        Optional<JqExpression> instanceIdPath,
        Optional<PodSelectorDefinition> podSelector,
        Optional<StatusDefinition> status,
        Optional<SuspendDefinition> suspend,
        String field) {

    public boolean isRoot() {
        return ownerRef.isEmpty();
    }
}
