package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.definition.BuiltInKinds;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Expected names as {@code kubectl api-resources} prints them for a Kubernetes 1.32 API server. */
@Timeout(10)
class BuiltInKindsTest {
    @Test
    void builtInKindsHaveTheirRestNamesAndScope() {
        assertThat(BuiltInKinds.of(GroupVersionKind.of("batch/v1", "Job")))
                .contains(new BuiltInKinds.Kind("jobs", List.of(), true));
        assertThat(BuiltInKinds.of(GroupVersionKind.of("apps/v1", "StatefulSet")))
                .contains(new BuiltInKinds.Kind("statefulsets", List.of("sts"), true));
        assertThat(BuiltInKinds.of(GroupVersionKind.of("v1", "Node")))
                .contains(new BuiltInKinds.Kind("nodes", List.of("no"), false));
        assertThat(BuiltInKinds.of(GroupVersionKind.of("apiextensions.k8s.io/v1", "CustomResourceDefinition")))
                .contains(new BuiltInKinds.Kind("customresourcedefinitions", List.of("crd", "crds"), false));
    }

    @Test
    void aCustomKindNamedLikeABuiltInOneIsNotBuiltIn() {
        assertThat(BuiltInKinds.of(GroupVersionKind.of("batch.volcano.sh/v1alpha1", "Job")))
                .isEmpty();
        assertThat(BuiltInKinds.isBuiltIn("batch.volcano.sh", "Job")).isFalse();
        assertThat(BuiltInKinds.isBuiltIn("batch", "Job")).isTrue();
        assertThat(BuiltInKinds.of(GroupVersionKind.of("batch/v2", "Job"))).isEmpty();
    }
}
