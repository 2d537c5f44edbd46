package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Job as the hub's API server returns it (its generated selector and labels: the recorded
 * {@code batch-job-v1/v1.34.0/running.yaml}), forwarded to a member whose mock API server treats Jobs
 * as a real one does ({@link JobApiServer}): sent as it is, the member refuses it with 422; the
 * agent's apply strips what the hub generated, so the Job is created, and applying the same command
 * again is accepted.
 */
@Timeout(60)
class ForwardedJobIT {
    static final ApplyPolicy POLICY =
            new ApplyPolicy(Catalog.load().definitions(), Set.of(), ApplyPolicy.SYSTEM_NAMESPACES);
    static final String HUB_UID = "10f48056-f070-4e64-a367-5715492ed20d"; // the recorded Job's uid, by hand

    KubernetesMockServer server;
    KubernetesClient client;
    KubeApplier applier;

    @BeforeEach
    void member() {
        server = new KubernetesMockServer(
                new Context(), new MockWebServer(), new HashMap<>(), new JobApiServer(), false);
        server.init();
        client = server.createClient();
        applier = new KubeApplier(client, kind -> Optional.of("jobs"), false, Duration.ofMillis(1), 2);
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    static JsonNode hubJob() throws Exception {
        Optional<Path> recorded = SharedData.recorded();
        assumeTrue(recorded.isPresent(), SharedData.absent("recorded"));
        try (InputStream in = Files.newInputStream(recorded.get().resolve("batch-job-v1/v1.34.0/running.yaml"))) {
            return Documents.read(in).get(0).path("events").get(0).path("object");
        }
    }

    @Test
    void aJobWithTheHubsGeneratedSelectorIsRefusedAsItIsAndCreatedOnceTheAgentStripsIt() throws Exception {
        JsonNode hub = hubJob();
        assertThat(hub.at("/spec/selector/matchLabels/batch.kubernetes.io~1controller-uid")
                        .asText())
                .isEqualTo(HUB_UID);

        // what the agent used to send: server fields and status gone, the hub's selector kept
        ObjectNode asItWas = hub.deepCopy();
        asItWas.remove("status");
        ((ObjectNode) asItWas.get("metadata"))
                .remove(java.util.List.of("uid", "resourceVersion", "creationTimestamp", "generation"));
        assertThatThrownBy(() -> client.batch()
                        .v1()
                        .jobs()
                        .resource(Documents.json().treeToValue(asItWas, Job.class))
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getStatus().getMessage()).contains("`selector` not auto-generated");
                });

        Command.Apply apply = new Command.Apply("p-7", 1, Instant.EPOCH, hub);
        KubeApplier.Outcome created = applier.carryOut(POLICY.decide(apply, Optional.empty()));

        assertThat(created)
                .isEqualTo(new KubeApplier.Outcome(
                        CommandResult.Outcome.APPLIED, "created Job test-n88rk/karta-e2e-job-running"));
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace("test-n88rk")
                .withName("karta-e2e-job-running")
                .get();
        String memberUid = job.getMetadata().getUid();
        assertThat(memberUid).isNotEqualTo(HUB_UID);
        assertThat(job.getSpec().getSelector().getMatchLabels())
                .containsExactlyEntriesOf(java.util.Map.of("batch.kubernetes.io/controller-uid", memberUid));
        assertThat(job.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("controller-uid", memberUid);
        assertThat(job.getMetadata().getLabels())
                .containsEntry("cartograph.dev/placement-id", "p-7")
                .doesNotContainKey("controller-uid");

        // delivered again (a crash before the commit): an update that keeps what the member generated, accepted
        ApplyPolicy.Decision again =
                POLICY.decide(apply, Optional.of(Documents.json().valueToTree(job)));
        assertThat(again).isInstanceOf(ApplyPolicy.Decision.Update.class);
        assertThat(applier.carryOut(again))
                .isEqualTo(new KubeApplier.Outcome(
                        CommandResult.Outcome.APPLIED, "updated Job test-n88rk/karta-e2e-job-running"));
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("test-n88rk")
                        .withName("karta-e2e-job-running")
                        .get()
                        .getSpec()
                        .getSelector())
                .isEqualTo(job.getSpec().getSelector());
    }

    @Test
    void replacingTheJobWithTheStrippedManifestWouldBeRefusedAsImmutable() throws Exception {
        JsonNode hub = hubJob();
        JsonNode marked = ((ApplyPolicy.Decision.Create)
                        POLICY.decide(new Command.Apply("p-7", 1, Instant.EPOCH, hub), Optional.empty()))
                .manifest();
        applier.carryOut(new ApplyPolicy.Decision.Create(marked));
        Job stored = client.batch()
                .v1()
                .jobs()
                .inNamespace("test-n88rk")
                .withName("karta-e2e-job-running")
                .get();
        Job replacement = Documents.json().treeToValue(marked, Job.class);
        replacement.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());

        // why the agent updates with a merge patch and not a PUT of the manifest
        assertThatThrownBy(
                        () -> client.batch().v1().jobs().resource(replacement).update())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(422));
    }
}
