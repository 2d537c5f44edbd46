package dev.cartograph.mock.discovery;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.List;
import java.util.Locale;

/**
 * The built-in resource types the mock API server advertises in discovery: enough of core,
 * apps, batch, coordination, scheduling, apiextensions and events for kubectl and the Cartograph
 * services, in the order discovery lists them. Plural, short names and scope come from the one
 * table, {@link dev.cartograph.interpreter.definition.BuiltInKinds}; this adds what only an API
 * server's discovery says (categories, status and scale subresources). The mock stores any path, so
 * this list only decides what discovery (and so kubectl) knows. Immutable; thread-safe.
 */
public final class BuiltInKinds {
    private static final List<String> ALL = List.of("all");

    private static final List<ApiKind> KINDS = List.of(
            kind("v1", "Pod", ALL, true),
            kind("v1", "Node", List.of(), true),
            kind("v1", "Namespace", List.of(), true),
            kind("v1", "Event", List.of(), false),
            kind("v1", "Service", ALL, true),
            kind("v1", "Endpoints", List.of(), false),
            kind("v1", "ConfigMap", List.of(), false),
            kind("v1", "Secret", List.of(), false),
            kind("v1", "ServiceAccount", List.of(), false),
            kind("v1", "PersistentVolumeClaim", List.of(), true),
            kind("v1", "PersistentVolume", List.of(), true),
            kind("v1", "ResourceQuota", List.of(), true),
            kind("v1", "LimitRange", List.of(), false),
            kind("apps/v1", "Deployment", ALL, true, true),
            kind("apps/v1", "StatefulSet", ALL, true, true),
            kind("apps/v1", "ReplicaSet", ALL, true, true),
            kind("apps/v1", "DaemonSet", ALL, true),
            kind("apps/v1", "ControllerRevision", List.of(), false),
            kind("batch/v1", "Job", ALL, true),
            kind("batch/v1", "CronJob", ALL, true),
            kind("coordination.k8s.io/v1", "Lease", List.of(), false),
            kind("scheduling.k8s.io/v1", "PriorityClass", List.of(), false),
            kind("policy/v1", "PodDisruptionBudget", List.of(), true),
            kind("apiextensions.k8s.io/v1", "CustomResourceDefinition", List.of("api-extensions"), true),
            kind("events.k8s.io/v1", "Event", List.of(), false));

    private BuiltInKinds() {}

    /** Every built-in type, core group first, in the order discovery lists them. */
    public static List<ApiKind> all() {
        return KINDS;
    }

    /** Whether {@code group}/{@code kind} is a built-in type (the version does not matter). */
    public static boolean isBuiltIn(String group, String kind) {
        return dev.cartograph.interpreter.definition.BuiltInKinds.isBuiltIn(group, kind);
    }

    private static ApiKind kind(String apiVersion, String kind, List<String> categories, boolean status) {
        return kind(apiVersion, kind, categories, status, false);
    }

    private static ApiKind kind(
            String apiVersion, String kind, List<String> categories, boolean status, boolean scale) {
        GroupVersionKind gvk = GroupVersionKind.of(apiVersion, kind);
        var names = dev.cartograph.interpreter.definition.BuiltInKinds.of(gvk)
                .orElseThrow(() -> new IllegalStateException(gvk + " is missing from the built-in kinds table"));
        return new ApiKind(
                gvk.group(),
                gvk.version(),
                names.plural(),
                kind.toLowerCase(Locale.ROOT),
                kind,
                names.namespaced(),
                ApiKind.ALL_VERBS,
                names.shortNames(),
                categories,
                status,
                scale);
    }
}
