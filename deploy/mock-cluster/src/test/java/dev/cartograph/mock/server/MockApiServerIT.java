package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.mock.protobuf.RecordedBodies;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mock server over real HTTP: discovery documents, CRDs added later, the status subresource,
 * protobuf bodies, server-side apply, and answers (never silence) for what it cannot do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MockApiServerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static MockApiServer server;

    @BeforeAll
    static void start() {
        server = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(CatalogCrds.of(Catalog.load().definitions())));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void servesLegacyDiscoveryAsPlainJson() throws Exception {
        HttpResponse<String> api = get(
                "/api", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList," + "application/json");
        assertThat(api.headers().firstValue("Content-Type")).contains("application/json");
        assertThat(JSON.readTree(api.body()).path("kind").asText()).isEqualTo("APIVersions");
        assertThat(JSON.readTree(api.body()).path("versions").get(0).asText()).isEqualTo("v1");

        JsonNode apis = JSON.readTree(get("/apis", "application/json").body());
        assertThat(apis.path("kind").asText()).isEqualTo("APIGroupList");
        assertThat(apis.findValuesAsText("name")).contains("apps", "batch", "kubeflow.org", "leaderworkerset.x-k8s.io");

        JsonNode core = JSON.readTree(get("/api/v1", "application/json").body());
        assertThat(core.path("kind").asText()).isEqualTo("APIResourceList");
        assertThat(core.path("groupVersion").asText()).isEqualTo("v1");

        JsonNode kubeflow =
                JSON.readTree(get("/apis/kubeflow.org/v1", "application/json").body());
        assertThat(kubeflow.path("groupVersion").asText()).isEqualTo("kubeflow.org/v1");
        assertThat(kubeflow.findValuesAsText("name")).contains("pytorchjobs", "pytorchjobs/status", "tfjobs");

        assertThat(JSON.readTree(get("/version", "application/json").body())
                        .path("minor")
                        .asText())
                .isEqualTo("32");
        assertThat(get("/openapi/v2", "application/json").statusCode()).isEqualTo(404);
        assertThat(get("/apis/nothing.example.com/v1", "application/json").statusCode())
                .isEqualTo(404);
    }

    @Test
    void crdCreatedLaterAppearsInDiscoveryWithItsNames() throws Exception {
        CustomResourceDefinition gadgets = new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("gadgets.later.example.com")
                .endMetadata()
                .withNewSpec()
                .withGroup("later.example.com")
                .withScope("Cluster")
                .withNewNames()
                .withKind("Gadget")
                .withPlural("gadgets")
                .withSingular("gadget")
                .withShortNames("gd")
                .withCategories("toys")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .build();
        server.client()
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(gadgets)
                .create();

        JsonNode list = JSON.readTree(
                get("/apis/later.example.com/v1", "application/json").body());
        JsonNode gadget = list.path("resources").get(0);
        assertThat(gadget.path("name").asText()).isEqualTo("gadgets");
        assertThat(gadget.path("namespaced").asBoolean()).isFalse();
        assertThat(gadget.path("shortNames").get(0).asText()).isEqualTo("gd");
        assertThat(gadget.path("categories").get(0).asText()).isEqualTo("toys");
        assertThat(JSON.readTree(get("/apis", "application/json").body()).findValuesAsText("name"))
                .contains("later.example.com");
    }

    @Test
    void statusSubresourceUpdatesAndPatchesOnlyStatus() {
        ResourceDefinitionContext pytorch = context("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs");
        var resources = server.client().genericKubernetesResources(pytorch).inNamespace("ml");
        resources
                .resource(object("kubeflow.org/v1", "PyTorchJob", "status-job"))
                .create();

        GenericKubernetesResource withStatus = resources.withName("status-job").get();
        withStatus.setAdditionalProperty(
                "status", Map.of("conditions", java.util.List.of(Map.of("type", "Running", "status", "True"))));
        withStatus.setAdditionalProperty("spec", Map.of("changed", "by status update, must be ignored"));
        resources.resource(withStatus).updateStatus();
        GenericKubernetesResource afterUpdate = resources.withName("status-job").get();
        assertThat(afterUpdate.get("status", "conditions", 0, "type").toString())
                .isEqualTo("Running");
        Map<String, Object> spec = afterUpdate.get("spec");
        assertThat(spec).doesNotContainKey("changed");

        GenericKubernetesResource patch = resources.withName("status-job").get();
        patch.setAdditionalProperty("status", Map.of("phase", "Succeeded"));
        resources.resource(patch).patchStatus();
        assertThat(resources.withName("status-job").get().get("status", "phase").toString())
                .isEqualTo("Succeeded");
    }

    @Test
    void statusSubresourceIsSeparateOnNonStorageVersionsToo() {
        ResourceDefinitionContext dgd =
                context("nvidia.com", "v1alpha1", "DynamoGraphDeployment", "dynamographdeployments");
        var resources = server.client().genericKubernetesResources(dgd).inNamespace("ml");
        resources
                .resource(object("nvidia.com/v1alpha1", "DynamoGraphDeployment", "graph"))
                .create();
        GenericKubernetesResource current = resources.withName("graph").get();
        current.setAdditionalProperty("status", Map.of("state", "successful"));
        resources.resource(current).updateStatus();
        assertThat(resources.withName("graph").get().get("status", "state").toString())
                .isEqualTo("successful");

        // with the status subresource, a main-resource update leaves status alone (as on a real API server)
        GenericKubernetesResource specOnly = resources.withName("graph").get();
        specOnly.getAdditionalProperties().remove("status");
        specOnly.setAdditionalProperty("spec", Map.of("replicas", 2));
        resources.resource(specOnly).update();
        GenericKubernetesResource after = resources.withName("graph").get();
        assertThat(after.get("spec", "replicas").toString()).isEqualTo("2");
        assertThat(after.get("status", "state").toString()).isEqualTo("successful");
    }

    @Test
    void statusPatchWithAQueryStringStillOnlyWritesStatus() throws Exception {
        ResourceDefinitionContext pytorch = context("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs");
        server.client()
                .genericKubernetesResources(pytorch)
                .inNamespace("ml")
                .resource(object("kubeflow.org/v1", "PyTorchJob", "query-job"))
                .create();
        String status = "/apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/query-job/status?fieldManager=kubectl-patch";
        HttpResponse<String> patched = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + status))
                        .header("Content-Type", "application/merge-patch+json")
                        .method(
                                "PATCH",
                                HttpRequest.BodyPublishers.ofString(
                                        "{\"status\":{\"phase\":\"Running\"},\"spec\":{\"x\":1}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(patched.statusCode()).isLessThan(300);
        GenericKubernetesResource stored = server.client()
                .genericKubernetesResources(pytorch)
                .inNamespace("ml")
                .withName("query-job")
                .get();
        assertThat(stored.get("status", "phase").toString()).isEqualTo("Running");
        Map<String, Object> spec = stored.get("spec");
        assertThat(spec).doesNotContainKey("x");
    }

    @Test
    void perRequestLoggingIsOffByDefault() {
        assertThat(MockApiServer.Options.defaults().requestLogging()).isFalse();
    }

    @Test
    void protobufBodiesOfNamespacesAreReadAndOthersRefusedAtOnce() throws Exception {
        HttpResponse<String> created =
                send("POST", "/api/v1/namespaces?fieldManager=kubectl-create", RecordedBodies.of("create-namespace"));
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(server.client().namespaces().withName("team-b").get()).isNotNull();

        HttpResponse<String> refused = send(
                "POST",
                "/apis/apps/v1/namespaces/ml/deployments?fieldManager=kubectl-create",
                RecordedBodies.of("create-deployment"));
        assertThat(refused.statusCode()).isEqualTo(415);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("reason").asText()).isEqualTo("UnsupportedMediaType");
        assertThat(status.path("message").asText())
                .contains("(apps/v1 Deployment)")
                .contains("kubectl apply -f");
    }

    @Test
    void serverSideApplyCreatesThenMergesIntoTheObject() throws Exception {
        String path = "/api/v1/namespaces/ml/configmaps/applied?fieldManager=kubectl&force=false";
        HttpResponse<String> created = send(
                "PATCH",
                path,
                "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"applied\"},\"data\":{\"a\":\"1\"}}");
        assertThat(created.statusCode()).isEqualTo(201);
        HttpResponse<String> merged = send(
                "PATCH",
                path,
                "application/apply-patch+yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied}\ndata: {b: \"2\"}\n");
        assertThat(merged.statusCode()).isEqualTo(200);
        assertThat(server.client()
                        .configMaps()
                        .inNamespace("ml")
                        .withName("applied")
                        .get()
                        .getData())
                .isEqualTo(Map.of("a", "1", "b", "2"));
    }

    @Test
    void aBodyTheStoreCannotReadIs400AndAnUnknownMethod405NeverSilence() throws Exception {
        HttpResponse<String> unreadable = send("POST", "/api/v1/namespaces/ml/configmaps", "application/json", "{");
        assertThat(unreadable.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(unreadable.body()).path("kind").asText()).isEqualTo("Status");
        assertThat(send("OPTIONS", "/api/v1/namespaces", "application/json", "").statusCode())
                .isEqualTo(405);
    }

    @Test
    void writesAKubeconfigPointingAtTheServer(@TempDir Path dir) throws Exception {
        Path file = server.writeKubeconfig(dir.resolve("sub/kubeconfig"), "ml");
        String text = Files.readString(file);
        assertThat(text)
                .contains("server: " + server.url())
                .contains("namespace: ml")
                .contains("current-context: cartograph-mock");
        assertThat(server.url()).startsWith("http://127.0.0.1:");
    }

    private static GenericKubernetesResource object(String apiVersion, String kind, String name) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(apiVersion)
                .withKind(kind)
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("replicas", 1))
                .build();
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

    private static HttpResponse<String> send(String method, String path, byte[] protobuf) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Content-Type", "application/vnd.kubernetes.protobuf")
                        .header("Accept", "application/vnd.kubernetes.protobuf,application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(protobuf))
                        .timeout(java.time.Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> send(String method, String path, String contentType, String body)
            throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Content-Type", contentType)
                        .method(method, HttpRequest.BodyPublishers.ofString(body))
                        .timeout(java.time.Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path, String accept) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Accept", accept)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
