package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** A workload kind the member serves and the catalog defines, with how to reach it. Immutable. */
record ServedKind(GroupVersionKind kind, ResourceDefinitionContext context) {
    static ServedKind of(GroupVersionKind kind, String plural, boolean namespaced) {
        return new ServedKind(
                kind,
                new ResourceDefinitionContext.Builder()
                        .withGroup(kind.group())
                        .withVersion(kind.version())
                        .withKind(kind.kind())
                        .withPlural(plural)
                        .withNamespaced(namespaced)
                        .build());
    }
}
