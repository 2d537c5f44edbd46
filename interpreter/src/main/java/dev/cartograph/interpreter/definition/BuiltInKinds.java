package dev.cartograph.interpreter.definition;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in Kubernetes kinds with their REST names (plural, short names, scope) as a Kubernetes
 * 1.32 API server reports them: every API server serves them, but a discovery answer (or a mock
 * server's) may list only CRDs. The one kind-to-plural table: the services, the CLI, the simulator and
 * the mock API server's discovery all read it. Pure data; thread-safe.
 */
public final class BuiltInKinds {
    /** A built-in kind's plural, short names and scope. */
    public record Kind(String plural, List<String> shortNames, boolean namespaced) {
        public Kind {
            shortNames = List.copyOf(shortNames);
        }
    }

    private static final Map<GroupVersionKind, Kind> KINDS = Map.ofEntries(
            entry("v1", "Pod", "pods", true, "po"),
            entry("v1", "Node", "nodes", false, "no"),
            entry("v1", "Namespace", "namespaces", false, "ns"),
            entry("v1", "Event", "events", true, "ev"),
            entry("v1", "Service", "services", true, "svc"),
            entry("v1", "Endpoints", "endpoints", true, "ep"),
            entry("v1", "ConfigMap", "configmaps", true, "cm"),
            entry("v1", "Secret", "secrets", true),
            entry("v1", "ServiceAccount", "serviceaccounts", true, "sa"),
            entry("v1", "PersistentVolumeClaim", "persistentvolumeclaims", true, "pvc"),
            entry("v1", "PersistentVolume", "persistentvolumes", false, "pv"),
            entry("v1", "ResourceQuota", "resourcequotas", true, "quota"),
            entry("v1", "LimitRange", "limitranges", true, "limits"),
            entry("apps/v1", "Deployment", "deployments", true, "deploy"),
            entry("apps/v1", "StatefulSet", "statefulsets", true, "sts"),
            entry("apps/v1", "ReplicaSet", "replicasets", true, "rs"),
            entry("apps/v1", "DaemonSet", "daemonsets", true, "ds"),
            entry("apps/v1", "ControllerRevision", "controllerrevisions", true),
            entry("batch/v1", "Job", "jobs", true),
            entry("batch/v1", "CronJob", "cronjobs", true, "cj"),
            entry("coordination.k8s.io/v1", "Lease", "leases", true),
            entry("scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", false, "pc"),
            entry("policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", true, "pdb"),
            entry(
                    "apiextensions.k8s.io/v1",
                    "CustomResourceDefinition",
                    "customresourcedefinitions",
                    false,
                    "crd",
                    "crds"),
            entry("events.k8s.io/v1", "Event", "events", true, "ev"));

    private BuiltInKinds() {}

    private static Map.Entry<GroupVersionKind, Kind> entry(
            String apiVersion, String kind, String plural, boolean namespaced, String... shortNames) {
        return Map.entry(GroupVersionKind.of(apiVersion, kind), new Kind(plural, List.of(shortNames), namespaced));
    }

    public static Optional<Kind> of(GroupVersionKind gvk) {
        return Optional.ofNullable(KINDS.get(gvk));
    }

    /** Whether {@code group}/{@code kind} is a built-in kind in any version. */
    public static boolean isBuiltIn(String group, String kind) {
        return KINDS.keySet().stream()
                .anyMatch(k -> k.group().equals(group) && k.kind().equals(kind));
    }
}
