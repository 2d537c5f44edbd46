package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.kube.ClusterCache;
import dev.cartograph.agent.kube.KubeApplier;
import dev.cartograph.agent.kube.MemberCluster;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent checks every Apply again before it writes, whatever the broker decided: an unsafe manifest, or one
 * aimed at a system namespace or the agent's own, is REJECTED with the reason and nothing is created on the
 * member (a fabric8 mock API server, CRUD mode). The admission is the one {@link AgentRuntime} builds from
 * {@link AgentSettings.Admission}.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class PodSecurityAdmissionIT {
    static final AgentSettings.Admission ADMISSION = new AgentSettings.Admission(
            new PodSecurityPolicy(Level.BASELINE, Set.of("gpu-ops")), "cartograph-system", Set.of("monitoring"));

    KubernetesClient client;
    ClusterCache cache;
    CommandHandler handler;

    @BeforeEach
    void agent() {
        Definitions catalog = Catalog.load().definitions();
        MemberCluster member = new MemberCluster(client);
        cache = member.cache(catalog, change -> {});
        cache.start();
        KubeApplier applier = member.applier(cache, true);
        ApplyPolicy policy = new ApplyPolicy(catalog, Set.of(), ADMISSION.deniedNamespaces(), ADMISSION.podSecurity());
        handler = new CommandHandler("member", cache, applier, () -> policy, new PendingChanges(), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        cache.close();
    }

    static JsonNode job(String namespace, String podSpecExtras, String containerExtras) throws Exception {
        String text = """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: train, namespace: %s}
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: x%s}]
                      %s
                """.formatted(namespace, containerExtras, podSpecExtras);
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    CommandResult apply(String placement, JsonNode manifest) {
        return handler.apply(new Command.Apply(placement, 1, Instant.now(), manifest));
    }

    int jobsAnywhere() {
        return client.batch().v1().jobs().inAnyNamespace().list().getItems().size();
    }

    @Test
    void anUnsafeManifestIsRejectedWithItsViolationsAndNothingIsCreated() throws Exception {
        CommandResult r = apply(
                "p-1",
                job(
                        "ml",
                        "volumes: [{name: host, hostPath: {path: /}}]\n      hostPID: true",
                        ", securityContext: {privileged: true}"));
        assertThat(r.outcome()).isEqualTo(CommandResult.Outcome.REJECTED);
        // by hand from the manifest: hostPID, the privileged container, the hostPath volume
        assertThat(r.reason())
                .startsWith("pod security level baseline of namespace ml refuses it (3 violations): ")
                .contains(
                        "spec.template.spec.hostPID: ",
                        "spec.template.spec.containers[0].securityContext.privileged: ",
                        "spec.template.spec.volumes[0].hostPath: volume 'host' mounts the node's path /")
                .endsWith("; nothing was written");
        assertThat(jobsAnywhere()).isZero();
        assertThat(client.namespaces().withName("ml").get()).isNull(); // not even the namespace
    }

    @Test
    void systemNamespacesAndTheAgentsOwnAreRefusedWhateverTheManifest() throws Exception {
        for (String namespace :
                new String[] {"kube-system", "kube-public", "kube-node-lease", "cartograph-system", "monitoring"}) {
            CommandResult r = apply("p-" + namespace, job(namespace, "", ""));
            assertThat(r.outcome()).as(namespace).isEqualTo(CommandResult.Outcome.REJECTED);
            assertThat(r.reason()).as(namespace).isEqualTo("namespace " + namespace + " is not allowed");
        }
        assertThat(jobsAnywhere()).isZero();
    }

    @Test
    void anOrdinaryManifestIsCreatedAndAPrivilegedNamespaceTakesWhatBaselineRefuses() throws Exception {
        assertThat(apply("p-ok", job("ml", "", "")).outcome()).isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(apply("p-ops", job("gpu-ops", "hostNetwork: true", ", securityContext: {privileged: true}"))
                        .outcome())
                .isEqualTo(CommandResult.Outcome.APPLIED);
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("ml")
                        .withName("train")
                        .get())
                .isNotNull();
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("gpu-ops")
                        .withName("train")
                        .get())
                .isNotNull();
    }
}
