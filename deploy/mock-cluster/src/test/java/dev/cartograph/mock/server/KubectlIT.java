package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.mock.fleet.FleetProfile;
import dev.cartograph.mock.seed.FleetSeeder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the real kubectl binary against a mock server with the catalog CRDs installed and the
 * gpu-edge cluster seeded. No extra flags are needed: in particular not {@code --validate=false}
 * (the server's skeleton OpenAPI v3 tells kubectl the server validates fields).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withKind("PyTorchJob")
            .withPlural("pytorchjobs")
            .withNamespaced(true)
            .build();

    private static final String PYTORCHJOB = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: bert-finetune
              namespace: ml
              labels: {team: nlp}
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template:
                    spec:
                      containers:
                      - {name: pytorch, image: pytorch/pytorch:2.4.0, resources: {limits: {nvidia.com/gpu: 8}}}
                Worker:
                  replicas: 3
                  template:
                    spec:
                      containers:
                      - {name: pytorch, image: pytorch/pytorch:2.4.0, resources: {limits: {nvidia.com/gpu: 8}}}
            """;

    private static final String LEADERWORKERSET = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata:
              name: vllm-llama
              namespace: ml
            spec:
              replicas: 2
              leaderWorkerTemplate:
                size: 4
                workerTemplate:
                  spec:
                    containers:
                    - {name: vllm, image: vllm/vllm-openai:latest, resources: {limits: {nvidia.com/gpu: 8}}}
            """;

    private static MockApiServer server;
    private static Kubectl kubectl;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        kubectl = Kubectl.onPath(dir).orElse(null);
        Assumptions.assumeTrue(kubectl != null, "kubectl is not on PATH; skipping the kubectl end-to-end test");
        server = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(CatalogCrds.of(Catalog.load().definitions())));
        FleetSeeder.seed(
                server.client(),
                FleetProfile.defaultProfile().cluster("gpu-edge").orElseThrow());
        server.writeKubeconfig(kubectl.kubeconfig(), "ml");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void apiResourcesListsBuiltInAndCatalogKinds() throws Exception {
        String out = ok("api-resources");
        assertThat(out).containsPattern("pods\\s+po\\s+v1\\s+true\\s+Pod");
        assertThat(out).containsPattern("deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment");
        assertThat(out).containsPattern("pytorchjobs\\s+kubeflow.org/v1\\s+true\\s+PyTorchJob");
        assertThat(out)
                .containsPattern("leaderworkersets\\s+lws\\s+leaderworkerset.x-k8s.io/v1\\s+true\\s+LeaderWorkerSet");
        assertThat(out).containsPattern("customresourcedefinitions\\s+crd,crds\\s+apiextensions.k8s.io/v1\\s+false");
    }

    @Test
    @Order(2)
    void createsAndGetsCustomResources() throws Exception {
        assertThat(ok("create", "-f", file("pytorchjob.yaml", PYTORCHJOB)))
                .contains("pytorchjob.kubeflow.org/bert-finetune created");
        assertThat(ok("create", "-f", file("lws.yaml", LEADERWORKERSET)))
                .contains("leaderworkerset.leaderworkerset.x-k8s.io/vllm-llama created");

        assertThat(ok("get", "pytorchjobs", "-n", "ml")).contains("bert-finetune");
        assertThat(ok("get", "lws")).contains("vllm-llama");
        JsonNode job = JSON.readTree(ok("get", "pytorchjob", "bert-finetune", "-o", "json"));
        assertThat(job.path("metadata").path("name").asText()).isEqualTo("bert-finetune");
        assertThat(job.path("metadata").path("labels").path("team").asText()).isEqualTo("nlp");
        assertThat(job.path("spec")
                        .path("pytorchReplicaSpecs")
                        .path("Worker")
                        .path("replicas")
                        .asInt())
                .isEqualTo(3);
    }

    @Test
    @Order(3)
    void applyCreatesThenUpdates() throws Exception {
        String applied = PYTORCHJOB.replace("bert-finetune", "gpt-pretrain");
        assertThat(ok("apply", "-f", file("apply.yaml", applied)))
                .contains("pytorchjob.kubeflow.org/gpt-pretrain created");
        assertThat(ok("apply", "-f", file("apply.yaml", applied.replace("team: nlp", "team: research"))))
                .contains("pytorchjob.kubeflow.org/gpt-pretrain configured");
        GenericKubernetesResource stored = server.client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .withName("gpt-pretrain")
                .get();
        assertThat(stored.getMetadata().getLabels()).containsEntry("team", "research");
        assertThat(stored.getMetadata().getAnnotations())
                .containsKey("kubectl.kubernetes.io/last-applied-configuration");
    }

    @Test
    @Order(4)
    void describesACustomResource() throws Exception {
        String out = ok("describe", "pytorchjob", "bert-finetune");
        assertThat(out)
                .containsPattern("Name:\\s+bert-finetune")
                .containsPattern("Namespace:\\s+ml")
                .containsPattern("Labels:\\s+team=nlp")
                .contains("Kind:         PyTorchJob")
                .contains("Worker");
    }

    @Test
    @Order(5)
    void getsSeededPodsAndNodes() throws Exception {
        String out = ok("get", "pods,nodes", "-n", "preexisting");
        assertThat(out).contains("node/gpu-edge-l40s-0", "node/gpu-edge-l40s-1", "pod/preexisting-gpu-edge-l40s-1");
    }

    @Test
    @Order(6)
    void patchesTheStatusSubresource() throws Exception {
        assertThat(ok(
                        "patch",
                        "pytorchjob",
                        "gpt-pretrain",
                        "--subresource",
                        "status",
                        "--type",
                        "merge",
                        "-p",
                        "{\"status\":{\"phase\":\"Running\"}}"))
                .contains("patched");
        assertThat(ok("get", "pytorchjob", "gpt-pretrain", "-o", "jsonpath={.status.phase}"))
                .isEqualTo("Running");
    }

    @Test
    @Order(7)
    void appliesABuiltInKindTwiceWithStrategicMergePatch() throws Exception {
        String deployment = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: ml, labels: {v: "1"}}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers:
                      - {name: app, image: "nginx:1"}
                      - {name: sidecar, image: "envoy:1"}
                """;
        assertThat(ok("apply", "-f", file("deploy.yaml", deployment))).contains("deployment.apps/web created");
        assertThat(ok(
                        "apply",
                        "-f",
                        file(
                                "deploy.yaml",
                                deployment.replace("v: \"1\"", "v: \"2\"").replace("nginx:1", "nginx:2"))))
                .contains("deployment.apps/web configured");
        var web = server.client()
                .apps()
                .deployments()
                .inNamespace("ml")
                .withName("web")
                .get();
        assertThat(web.getMetadata().getLabels()).containsEntry("v", "2");
        assertThat(web.getSpec().getTemplate().getSpec().getContainers())
                .extracting(c -> c.getName() + "=" + c.getImage())
                .containsExactly("app=nginx:2", "sidecar=envoy:1");
    }

    @Test
    @Order(8)
    void scalesADeploymentThroughTheScaleSubresource() throws Exception {
        assertThat(ok("scale", "deployment", "web", "--replicas", "3")).contains("deployment.apps/web scaled");
        assertThat(server.client()
                        .apps()
                        .deployments()
                        .inNamespace("ml")
                        .withName("web")
                        .get()
                        .getSpec()
                        .getReplicas())
                .isEqualTo(3);
        assertThat(server.client()
                        .apps()
                        .deployments()
                        .inNamespace("ml")
                        .withName("web")
                        .get()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers())
                .hasSize(2);
    }

    @Test
    @Order(9)
    void logsOfASimulatedPodAreEmpty() throws Exception {
        assertThat(ok("logs", "-n", "preexisting", "preexisting-gpu-edge-l40s-1"))
                .isEmpty();
    }

    @Test
    @Order(10)
    void deleteRemovesTheObjects() throws Exception {
        assertThat(ok("delete", "-f", dir.resolve("pytorchjob.yaml").toString()))
                .contains("pytorchjob.kubeflow.org \"bert-finetune\" deleted");
        assertThat(server.client()
                        .genericKubernetesResources(PYTORCHJOBS)
                        .inNamespace("ml")
                        .withName("bert-finetune")
                        .get())
                .isNull();
        Kubectl.Result gone = run("get", "pytorchjob", "bert-finetune");
        assertThat(gone.code()).isNotZero();
        assertThat(gone.err()).contains("NotFound");
        assertThat(ok("get", "pytorchjobs")).contains("gpt-pretrain").doesNotContain("bert-finetune");
    }

    private static String ok(String... args) throws Exception {
        return kubectl.ok(args);
    }

    private static Kubectl.Result run(String... args) throws Exception {
        return kubectl.run(args);
    }

    private static String file(String name, String content) throws IOException {
        return kubectl.file(name, content);
    }
}
