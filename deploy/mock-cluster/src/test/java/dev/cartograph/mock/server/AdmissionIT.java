package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.mock.admission.Admission;
import dev.cartograph.mock.admission.AdmissionRule;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A member whose validating webhook refuses PyTorchJobs everywhere and updates of JobSets in {@code ml}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdmissionIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceDefinitionContext PYTORCHJOBS =
            context("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs");
    private static final ResourceDefinitionContext JOBSETS =
            context("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets");
    private static final String REFUSAL =
            "admission webhook \"validate.policy.cartograph.dev\" denied the request: PyTorchJobs are not allowed here";
    private static MockApiServer server;

    @BeforeAll
    static void start() {
        server = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(CatalogCrds.of(Catalog.load().definitions()))
                .withAdmission(Admission.of(List.of(
                        AdmissionRule.denying("PyTorchJob", "PyTorchJobs are not allowed here"),
                        AdmissionRule.denying("JobSet", "JobSets in ml are frozen")
                                .inNamespace("ml")
                                .on(Set.of(AdmissionRule.Operation.UPDATE))))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aCreateOfTheRefusedKindIsForbiddenWithTheWebhooksMessageAndNothingIsStored() {
        assertThatThrownBy(() -> create(PYTORCHJOBS, "ml", "train"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
                    assertThat(e.getStatus().getMessage()).isEqualTo(REFUSAL);
                });
        assertThatThrownBy(() -> create(PYTORCHJOBS, "team-b", "train"))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));

        assertThat(server.client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inAnyNamespace()
                        .list()
                        .getItems())
                .isEmpty(); // reads are unaffected, and nothing was stored
        assertThat(server.admissionDenials()).isNotEmpty();
    }

    @Test
    void theRefusalIsTheStatusBodyARealServerSends() throws Exception {
        String job = JSON.writeValueAsString(Map.of(
                "apiVersion",
                "kubeflow.org/v1",
                "kind",
                "PyTorchJob",
                "metadata",
                Map.of("name", "raw", "namespace", "ml"),
                "spec",
                Map.of()));
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(server.url() + "/apis/kubeflow.org/v1/namespaces/ml/pytorchjobs"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(job))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(403);
        JsonNode status = JSON.readTree(response.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("status").asText()).isEqualTo("Failure");
        assertThat(status.path("reason").asText()).isEqualTo("Forbidden");
        assertThat(status.path("code").asInt()).isEqualTo(403);
        assertThat(status.path("message").asText()).isEqualTo(REFUSAL);
    }

    @Test
    void anUpdateRuleRefusesUpdatesAndPatchesInItsNamespaceOnlyAndNeverStatusWrites() {
        GenericKubernetesResource sweep = create(JOBSETS, "ml", "sweep"); // creates are admitted
        GenericKubernetesResource other = create(JOBSETS, "dev", "sweep");

        sweep.getMetadata().setLabels(Map.of("team", "a"));
        assertThatThrownBy(() -> server.client()
                        .genericKubernetesResources(JOBSETS)
                        .inNamespace("ml")
                        .resource(sweep)
                        .update())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("admission webhook \"validate.policy.cartograph.dev\" denied the request: "
                                    + "JobSets in ml are frozen");
                });
        assertThatThrownBy(() -> server.client()
                        .genericKubernetesResources(JOBSETS)
                        .inNamespace("ml")
                        .withName("sweep")
                        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"team\":\"b\"}}}"))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));

        other.getMetadata().setLabels(Map.of("team", "a"));
        assertThat(server.client()
                        .genericKubernetesResources(JOBSETS)
                        .inNamespace("dev")
                        .resource(other)
                        .update()
                        .getMetadata()
                        .getLabels())
                .containsEntry("team", "a");

        GenericKubernetesResource withStatus = server.client()
                .genericKubernetesResources(JOBSETS)
                .inNamespace("ml")
                .withName("sweep")
                .get();
        withStatus.setAdditionalProperty("status", Map.of("restarts", 0));
        server.client()
                .genericKubernetesResources(JOBSETS)
                .inNamespace("ml")
                .resource(withStatus)
                .updateStatus(); // a webhook on jobsets does not see jobsets/status
        assertThat(server.client()
                        .genericKubernetesResources(JOBSETS)
                        .inNamespace("ml")
                        .withName("sweep")
                        .get()
                        .getMetadata()
                        .getLabels())
                .isNullOrEmpty();
    }

    private static GenericKubernetesResource create(ResourceDefinitionContext kind, String namespace, String name) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(kind.getGroup() + "/" + kind.getVersion());
        r.setKind(kind.getKind());
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName(name)
                .withNamespace(namespace)
                .build());
        r.setAdditionalProperty("spec", Map.of());
        return server.client()
                .genericKubernetesResources(kind)
                .inNamespace(namespace)
                .resource(r)
                .create();
    }

    private static ResourceDefinitionContext context(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(true)
                .build();
    }
}
