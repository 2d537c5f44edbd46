package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.kube.DependencySync;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.mock.rbac.Denial;
import dev.cartograph.mock.server.MockApiServer;
import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipped agent RBAC (deploy/rbac/agent.yaml) covers what the agent does with a workload's dependencies, proven
 * against a mock API server enforcing it on the agent's token: every call of {@link DependencySync} (get and list
 * by label, create, update, delete of ConfigMaps, Secrets, ServiceAccounts and claims) in a namespace the agent
 * serves passes with zero denials; in a namespace without its RoleBinding the first read is refused as forbidden,
 * so the agent reads no Secret there. The broker's side of dependencies is not under test here.
 */
@Timeout(60)
class DependencyRbacIT {
    static JsonNode yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    static List<JsonNode> dependencies(String namespace) throws Exception {
        String meta = ", namespace: " + namespace + "}\n";
        return List.of(
                yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: trainer" + meta),
                yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings" + meta + "data: {a: \"1\"}\n"),
                yaml("apiVersion: v1\nkind: Secret\nmetadata: {name: creds" + meta + "data: {t: eA==}\n"),
                yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data" + meta
                        + "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"));
    }

    @Test
    void everyDependencyCallIsAllowedInAServedNamespaceAndForbiddenInAnUnboundOne() throws Exception {
        try (MockApiServer member = MockApiServer.start(MockApiServer.Options.defaults()
                        .withRbac(RbacSufficiencyIT.rbac(
                                "agent.yaml", RbacSufficiencyIT.AGENT_TOKEN, RbacSufficiencyIT.AGENT)));
                KubernetesClient agent = RbacSufficiencyIT.client(member, RbacSufficiencyIT.AGENT_TOKEN)) {
            DependencySync sync =
                    new KubeApplier(agent, kind -> Optional.empty(), false, Duration.ofMillis(10), 2).dependencies();
            List<JsonNode> all = dependencies("ml");
            DependencySync.Use first = sync.use("p-1", all); // get, list, create
            assertThat(first.failure()).isEmpty();
            DependencySync.Use second = sync.use("p-2", all.subList(1, 2)); // update: p-2's label added
            assertThat(second.failure()).isEmpty();
            // p-1 keeps only the ConfigMap: the account and Secret deleted, the claim updated (unlabelled)
            assertThat(sync.releaseDropped("p-1", "ml", all.subList(1, 2))).isEmpty();
            assertThat(sync.releaseAll("p-1", "ml")).isEmpty(); // the ConfigMap updated: p-2 still uses it
            assertThat(sync.releaseAll("p-2", "ml")).isEmpty(); // deleted
            assertThat(member.client().configMaps().inNamespace("ml").list().getItems())
                    .isEmpty();
            assertThat(member.client()
                            .persistentVolumeClaims()
                            .inNamespace("ml")
                            .withName("data")
                            .get())
                    .isNotNull();
            assertThat(member.rbacDenials()).as("agent requests denied").isEmpty();

            DependencySync.Use refused = sync.use("p-3", dependencies("research"));
            assertThat(refused.failure()).isPresent();
            assertThat(refused.failure().get().outcome()).isEqualTo(CommandResult.Outcome.FAILED);
            String forbidden = "serviceaccounts \"trainer\" is forbidden: User \"" + RbacSufficiencyIT.AGENT
                    + "\" cannot get resource \"serviceaccounts\" in API group \"\" in the namespace \"research\"";
            assertThat(refused.failure().get().reason())
                    .isEqualTo("ServiceAccount research/trainer not written: the API server refused it: 403 Forbidden: "
                            + forbidden);
            // the read, and the read of the release that follows it (nothing was labelled): the Secret is never read
            assertThat(member.rbacDenials()).extracting(Denial::message).containsExactly(forbidden, forbidden);
        }
    }
}
