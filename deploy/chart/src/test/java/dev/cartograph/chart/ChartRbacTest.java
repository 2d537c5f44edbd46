package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The chart grants exactly what deploy/rbac grants (the manifests RbacManifestsTest and RbacSufficiencyIT keep
 * honest): each rendered Role's and ClusterRole's rules equal the file's, rule for rule; bindings tie them to the
 * chart's ServiceAccounts; the agent's write role is bound per allowed namespace and never cluster-wide.
 */
@Timeout(300)
class ChartRbacTest {

    @Test
    void theBrokersRolesGrantWhatDeployRbacBrokerYamlGrants() {
        Rendered hub = Chart.template("values-hub.yaml");

        assertThat(hub.get("ClusterRole", "cartograph-broker").path("rules"))
                .isEqualTo(RbacFiles.rules("broker.yaml", "ClusterRole", "cartograph-broker"));
        assertThat(hub.get("Role", "cartograph-broker-lease").path("rules"))
                .isEqualTo(RbacFiles.rules("broker.yaml", "Role", "cartograph-broker-lease"));
        assertThat(hub.ofKind("ClusterRole")).hasSize(1);
        assertThat(hub.ofKind("Role")).hasSize(1);
        assertBinding(
                hub.get("ClusterRoleBinding", "cartograph-broker"),
                "ClusterRole",
                "cartograph-broker",
                "cartograph-broker");
        assertBinding(
                hub.get("RoleBinding", "cartograph-broker-lease"),
                "Role",
                "cartograph-broker-lease",
                "cartograph-broker");
    }

    @Test
    void theLeaseRoleFollowsTheLeaseNameAndNothingElseChanges() {
        Rendered hub =
                Chart.template(List.of("values-hub.yaml"), Map.of("broker.leaderElection.leaseName", "carto-lead"));

        JsonNode rules = hub.get("Role", "cartograph-broker-lease").path("rules");
        JsonNode reference = RbacFiles.rules("broker.yaml", "Role", "cartograph-broker-lease");
        assertThat(rules).hasSize(reference.size());
        assertThat(rules.get(0)).isEqualTo(reference.get(0)); // create: not limitable by name
        assertThat(rules.get(1).path("resourceNames").toString()).isEqualTo("[\"carto-lead\"]");
        assertThat(rules.get(1).path("verbs")).isEqualTo(reference.get(1).path("verbs"));
        assertThat(hub.config("broker").path("lease-name").asText()).isEqualTo("carto-lead");
    }

    @Test
    void theAgentsRolesGrantWhatDeployRbacAgentYamlGrants() {
        Rendered member = Chart.template("values-member.yaml");

        assertThat(member.get("ClusterRole", "cartograph-agent-read").path("rules"))
                .isEqualTo(RbacFiles.rules("agent.yaml", "ClusterRole", "cartograph-agent-read"));
        assertThat(member.get("ClusterRole", "cartograph-agent-write").path("rules"))
                .isEqualTo(RbacFiles.rules("agent.yaml", "ClusterRole", "cartograph-agent-write"));
        assertThat(member.ofKind("ClusterRole")).hasSize(2);
        assertBinding(
                member.get("ClusterRoleBinding", "cartograph-agent-read"),
                "ClusterRole",
                "cartograph-agent-read",
                "cartograph-agent");
        // the write role: never cluster-wide
        assertThat(member.ofKind("ClusterRoleBinding")).hasSize(1);
    }

    @Test
    void theWriteRoleIsBoundInEachAllowedNamespaceOnly() {
        Rendered member = Chart.template("values-member.yaml"); // allowedNamespaces: [ml, research]

        List<JsonNode> bindings = member.ofKind("RoleBinding").stream()
                .filter(b -> b.path("roleRef").path("kind").asText().equals("ClusterRole"))
                .toList();
        assertThat(bindings)
                .extracting(b -> b.path("metadata").path("namespace").asText())
                .containsExactly("ml", "research");
        for (JsonNode b : bindings) {
            assertBinding(b, "ClusterRole", "cartograph-agent-write", "cartograph-agent");
        }
        assertThat(member.config("agent").path("allowed-namespaces").toString()).isEqualTo("[\"ml\",\"research\"]");
    }

    /** Issue 33: the agent records its deletes in one ConfigMap of its own namespace, and may touch no other. */
    @Test
    void theAgentMayWriteOnlyItsCommandsConfigMapInItsOwnNamespace() throws Exception {
        Rendered member = Chart.template("values-member.yaml");

        JsonNode role = member.get("Role", "cartograph-agent-commands");
        assertThat(role.path("metadata").path("namespace").asText()).isEqualTo(Chart.NAMESPACE);
        assertThat(role.path("rules")).isEqualTo(RbacFiles.rules("agent.yaml", "Role", "cartograph-agent-commands"));
        assertThat(role.path("rules"))
                .isEqualTo(Chart.YAML.readTree("[{apiGroups: [''], resources: [configmaps], verbs: [create]},"
                        + " {apiGroups: [''], resources: [configmaps], resourceNames: [cartograph-agent-commands],"
                        + " verbs: [get, update]}]"));
        JsonNode binding = member.get("RoleBinding", "cartograph-agent-commands");
        assertThat(binding.path("metadata").path("namespace").asText()).isEqualTo(Chart.NAMESPACE);
        assertBinding(binding, "Role", "cartograph-agent-commands", "cartograph-agent");
    }

    @Test
    void creatingNamespacesAddsExactlyTheCreateNamespacesRole() {
        Rendered plain = Chart.template("values-member.yaml");
        Rendered creating = Chart.template("values-member-mtls.yaml"); // createNamespaces: true

        assertThat(plain.find("ClusterRole", "cartograph-agent-create-namespaces"))
                .isEmpty();
        assertThat(creating.get("ClusterRole", "cartograph-agent-create-namespaces")
                        .path("rules"))
                .isEqualTo(RbacFiles.rules(
                        "agent-create-namespaces.yaml", "ClusterRole", "cartograph-agent-create-namespaces"));
        assertBinding(
                creating.get("ClusterRoleBinding", "cartograph-agent-create-namespaces"),
                "ClusterRole",
                "cartograph-agent-create-namespaces",
                "cartograph-agent");
        assertThat(creating.config("agent").path("create-namespaces").asBoolean())
                .isTrue();
    }

    @Test
    void rbacCanBeLeftToTheOperator() {
        Rendered hub = Chart.template(List.of("values-hub.yaml"), Map.of("broker.rbac.create", false));

        assertThat(hub.ofKind("ClusterRole")).isEmpty();
        assertThat(hub.ofKind("Role")).isEmpty();
        assertThat(hub.ofKind("ClusterRoleBinding")).isEmpty();
        assertThat(hub.ofKind("RoleBinding")).isEmpty();
        assertThat(hub.find("ServiceAccount", "cartograph-broker")).isPresent();
    }

    private static void assertBinding(JsonNode binding, String roleKind, String roleName, String serviceAccount) {
        assertThat(binding.path("roleRef").path("kind").asText()).isEqualTo(roleKind);
        assertThat(binding.path("roleRef").path("name").asText()).isEqualTo(roleName);
        assertThat(binding.path("subjects")).hasSize(1);
        JsonNode subject = binding.path("subjects").get(0);
        assertThat(subject.path("kind").asText()).isEqualTo("ServiceAccount");
        assertThat(subject.path("name").asText()).isEqualTo(serviceAccount);
        assertThat(subject.path("namespace").asText()).isEqualTo(Chart.NAMESPACE);
    }
}
