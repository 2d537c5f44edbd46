package dev.cartograph.mock.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RbacPolicyTest {
    static final String AGENT = "system:serviceaccount:cartograph-system:agent";

    /** Reads cluster-wide; writes jobs only in ml (RoleBinding to a ClusterRole); one named lease; a User and a Group. */
    static final RbacPolicy POLICY = RbacPolicy.fromYaml(List.of("""
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata: {name: read}
            rules:
            - apiGroups: [""]
              resources: [pods]
              verbs: [get, list, watch]
            - apiGroups: [kubeflow.org]
              resources: [pytorchjobs/status]
              verbs: [patch]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata: {name: write-jobs}
            rules:
            - apiGroups: [batch]
              resources: [jobs]
              verbs: [create, delete]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata: {name: read}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: read}
            subjects:
            - {kind: ServiceAccount, name: agent, namespace: cartograph-system}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: write-jobs, namespace: ml}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: write-jobs}
            subjects:
            - {kind: ServiceAccount, name: agent, namespace: cartograph-system}
            - {kind: User, name: alice}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata: {name: lease, namespace: cartograph-system}
            rules:
            - apiGroups: [coordination.k8s.io]
              resources: [leases]
              verbs: [get, patch]
              resourceNames: [cartograph-broker]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: lease, namespace: cartograph-system}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: lease}
            subjects:
            - {kind: Group, name: "system:serviceaccounts:cartograph-system"}
            """));

    static boolean allows(String user, String verb, String group, String resource, String ns, String name) {
        int slash = resource.indexOf('/');
        RequestAttributes request = slash < 0
                ? RequestAttributes.resource(verb, group, resource, "", ns, name)
                : RequestAttributes.resource(
                        verb, group, resource.substring(0, slash), resource.substring(slash + 1), ns, name);
        return POLICY.allows(Subject.user(user), request);
    }

    @Test
    void aClusterRoleBindingAllowsItsVerbsInEveryNamespaceAndAtTheClusterScopeAndNothingElse() {
        assertThat(allows(AGENT, "list", "", "pods", "", "")).isTrue();
        assertThat(allows(AGENT, "watch", "", "pods", "research", "")).isTrue();
        assertThat(allows(AGENT, "delete", "", "pods", "ml", "p")).isFalse();
        assertThat(allows(AGENT, "list", "", "nodes", "", "")).isFalse();
        assertThat(allows(AGENT, "list", "apps", "pods", "", "")).isFalse(); // same resource, other group
    }

    @Test
    void aRoleBindingAllowsOnlyInItsOwnNamespace() {
        assertThat(allows(AGENT, "create", "batch", "jobs", "ml", "")).isTrue();
        assertThat(allows(AGENT, "create", "batch", "jobs", "research", "")).isFalse();
        assertThat(allows(AGENT, "create", "batch", "jobs", "", "")).isFalse(); // not cluster-wide
        assertThat(allows(AGENT, "update", "batch", "jobs", "ml", "x")).isFalse(); // verb not granted
        assertThat(allows("alice", "delete", "batch", "jobs", "ml", "x")).isTrue();
        assertThat(allows("bob", "delete", "batch", "jobs", "ml", "x")).isFalse();
    }

    @Test
    void subresourcesNeedTheirOwnRuleAndAResourceRuleDoesNotCoverThem() {
        assertThat(allows(AGENT, "patch", "kubeflow.org", "pytorchjobs/status", "ml", "b"))
                .isTrue();
        assertThat(allows(AGENT, "patch", "kubeflow.org", "pytorchjobs", "ml", "b"))
                .isFalse();
        assertThat(allows(AGENT, "get", "", "pods/log", "ml", "p")).isFalse();
    }

    @Test
    void resourceNamesLimitARuleToThoseNamesAndNeverMatchARequestWithoutOne() {
        assertThat(allows(AGENT, "get", "coordination.k8s.io", "leases", "cartograph-system", "cartograph-broker"))
                .isTrue();
        assertThat(allows(AGENT, "patch", "coordination.k8s.io", "leases", "cartograph-system", "other"))
                .isFalse();
        assertThat(allows(AGENT, "get", "coordination.k8s.io", "leases", "cartograph-system", ""))
                .isFalse();
        // the Group subject: every service account of cartograph-system, nobody else
        assertThat(allows(
                        "system:serviceaccount:cartograph-system:other",
                        "get",
                        "coordination.k8s.io",
                        "leases",
                        "cartograph-system",
                        "cartograph-broker"))
                .isTrue();
        assertThat(allows("alice", "get", "coordination.k8s.io", "leases", "cartograph-system", "cartograph-broker"))
                .isFalse();
    }

    @Test
    void wildcardsInRulesMatchAsInKubernetes() {
        RbacPolicy wide = RbacPolicy.fromYaml(List.of("""
                kind: ClusterRole
                apiVersion: rbac.authorization.k8s.io/v1
                metadata: {name: wide}
                rules:
                - {apiGroups: ["*"], resources: ["*/status"], verbs: ["*"]}
                - {nonResourceURLs: ["/metrics/*"], verbs: [get]}
                ---
                kind: ClusterRoleBinding
                apiVersion: rbac.authorization.k8s.io/v1
                metadata: {name: wide}
                roleRef: {kind: ClusterRole, name: wide, apiGroup: rbac.authorization.k8s.io}
                subjects: [{kind: User, name: bob}]
                """));
        Subject bob = Subject.user("bob");
        assertThat(wide.allows(bob, RequestAttributes.resource("update", "ray.io", "rayjobs", "status", "ml", "r")))
                .isTrue();
        assertThat(wide.allows(bob, RequestAttributes.resource("update", "ray.io", "rayjobs", "", "ml", "r")))
                .isFalse();
        assertThat(wide.allows(bob, RequestAttributes.of("GET", "/metrics/cadvisor")))
                .isTrue();
        assertThat(wide.allows(bob, RequestAttributes.of("GET", "/logs"))).isFalse();
    }

    @Test
    void everyAuthenticatedUserMayReadDiscoveryButAnEmptyPolicyAllowsNothingElse() {
        Subject nobody = Subject.user("nobody");
        assertThat(RbacPolicy.empty().allows(nobody, RequestAttributes.of("GET", "/apis/batch/v1")))
                .isTrue();
        assertThat(RbacPolicy.empty().allows(nobody, RequestAttributes.of("GET", "/openapi/v3/apis/batch/v1")))
                .isTrue();
        assertThat(RbacPolicy.empty().allows(nobody, RequestAttributes.of("POST", "/apis/batch/v1")))
                .isFalse();
        assertThat(RbacPolicy.empty().allows(nobody, RequestAttributes.of("GET", "/api/v1/pods")))
                .isFalse();
    }
}
