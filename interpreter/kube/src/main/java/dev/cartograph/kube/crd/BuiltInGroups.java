package dev.cartograph.kube.crd;

import java.util.Set;

/**
 * The API groups kube-apiserver serves itself (Kubernetes 1.32, {@code kubectl api-versions} on a bare
 * cluster), where no CustomResourceDefinition may define a kind: the core group, {@code apps},
 * {@code batch}, and the {@code *.k8s.io} groups of the API server. A catalog kind in one of them
 * (Pod, Job, Deployment, StatefulSet...) is served by every cluster and never gets a CRD. Pure data;
 * thread-safe.
 */
public final class BuiltInGroups {
    private static final Set<String> GROUPS = Set.of(
            "",
            "apps",
            "batch",
            "autoscaling",
            "policy",
            "extensions",
            "admissionregistration.k8s.io",
            "apiextensions.k8s.io",
            "apiregistration.k8s.io",
            "authentication.k8s.io",
            "authorization.k8s.io",
            "certificates.k8s.io",
            "coordination.k8s.io",
            "discovery.k8s.io",
            "events.k8s.io",
            "flowcontrol.apiserver.k8s.io",
            "internal.apiserver.k8s.io",
            "networking.k8s.io",
            "node.k8s.io",
            "rbac.authorization.k8s.io",
            "resource.k8s.io",
            "scheduling.k8s.io",
            "storage.k8s.io",
            "storagemigration.k8s.io");

    private BuiltInGroups() {}

    /** Whether {@code group} is served by kube-apiserver itself. */
    public static boolean isBuiltIn(String group) {
        return GROUPS.contains(group);
    }

    /**
     * Whether a CRD in {@code group} needs the {@code api-approved.kubernetes.io} annotation: the API
     * server refuses CRDs in {@code k8s.io}, {@code kubernetes.io} and their subdomains without it
     * ({@code x-k8s.io} is not one of them).
     */
    public static boolean isProtected(String group) {
        return group.equals("k8s.io")
                || group.endsWith(".k8s.io")
                || group.equals("kubernetes.io")
                || group.endsWith(".kubernetes.io");
    }
}
