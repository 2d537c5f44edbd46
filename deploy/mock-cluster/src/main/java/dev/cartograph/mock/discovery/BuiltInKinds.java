package dev.cartograph.mock.discovery;

import java.util.List;
import java.util.Locale;

/**
 * The built-in resource types the mock API server advertises in discovery: enough of core,
 * apps, batch, coordination, scheduling, apiextensions and events for kubectl and the Cartograph
 * services. Names, short names, categories and scope as a Kubernetes 1.32 API server reports them.
 * The mock stores any path, so this table only decides what discovery (and so kubectl) knows.
 * Immutable; thread-safe.
 */
public final class BuiltInKinds {
    private static final List<String> ALL = List.of("all");

    private static final List<ApiKind> KINDS = List.of(
            kind("", "v1", "pods", "Pod", true, List.of("po"), ALL, true),
            kind("", "v1", "nodes", "Node", false, List.of("no"), List.of(), true),
            kind("", "v1", "namespaces", "Namespace", false, List.of("ns"), List.of(), true),
            kind("", "v1", "events", "Event", true, List.of("ev"), List.of(), false),
            kind("", "v1", "services", "Service", true, List.of("svc"), ALL, true),
            kind("", "v1", "endpoints", "Endpoints", true, List.of("ep"), List.of(), false),
            kind("", "v1", "configmaps", "ConfigMap", true, List.of("cm"), List.of(), false),
            kind("", "v1", "secrets", "Secret", true, List.of(), List.of(), false),
            kind("", "v1", "serviceaccounts", "ServiceAccount", true, List.of("sa"), List.of(), false),
            kind("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true, List.of("pvc"), List.of(), true),
            kind("", "v1", "persistentvolumes", "PersistentVolume", false, List.of("pv"), List.of(), true),
            kind("", "v1", "resourcequotas", "ResourceQuota", true, List.of("quota"), List.of(), true),
            kind("", "v1", "limitranges", "LimitRange", true, List.of("limits"), List.of(), false),
            kind("apps", "v1", "deployments", "Deployment", true, List.of("deploy"), ALL, true, true),
            kind("apps", "v1", "statefulsets", "StatefulSet", true, List.of("sts"), ALL, true, true),
            kind("apps", "v1", "replicasets", "ReplicaSet", true, List.of("rs"), ALL, true, true),
            kind("apps", "v1", "daemonsets", "DaemonSet", true, List.of("ds"), ALL, true),
            kind("apps", "v1", "controllerrevisions", "ControllerRevision", true, List.of(), List.of(), false),
            kind("batch", "v1", "jobs", "Job", true, List.of(), ALL, true),
            kind("batch", "v1", "cronjobs", "CronJob", true, List.of("cj"), ALL, true),
            kind("coordination.k8s.io", "v1", "leases", "Lease", true, List.of(), List.of(), false),
            kind("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false, List.of("pc"), List.of(), false),
            kind("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, List.of("pdb"), List.of(), true),
            kind("apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", false,
                    List.of("crd", "crds"), List.of("api-extensions"), true),
            kind("events.k8s.io", "v1", "events", "Event", true, List.of("ev"), List.of(), false));

    private BuiltInKinds() {
    }

    /** Every built-in type, core group first, in the order discovery lists them. */
    public static List<ApiKind> all() {
        return KINDS;
    }

    /** Whether {@code group}/{@code kind} is a built-in type (the version does not matter). */
    public static boolean isBuiltIn(String group, String kind) {
        return KINDS.stream().anyMatch(k -> k.group().equals(group) && k.kind().equals(kind));
    }

    private static ApiKind kind(String group, String version, String plural, String kind, boolean namespaced,
            List<String> shortNames, List<String> categories, boolean status) {
        return kind(group, version, plural, kind, namespaced, shortNames, categories, status, false);
    }

    private static ApiKind kind(String group, String version, String plural, String kind, boolean namespaced,
            List<String> shortNames, List<String> categories, boolean status, boolean scale) {
        return new ApiKind(group, version, plural, kind.toLowerCase(Locale.ROOT), kind, namespaced, ApiKind.ALL_VERBS,
                shortNames, categories, status, scale);
    }
}
