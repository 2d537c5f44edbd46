package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writes a new user tries first, with the real kubectl binary (skipped without one):
 * {@code kubectl create namespace|configmap|secret|serviceaccount} (kubectl sends protobuf for those,
 * which the mock reads), {@code kubectl create deployment} (protobuf the mock does not read: refused
 * at once, saying what to do instead) and {@code kubectl apply --server-side} (approximated: create,
 * then merge). Expected values are the ones on the command lines and in the files here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KubectlWritesIT {
    private static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withKind("PyTorchJob")
            .withPlural("pytorchjobs")
            .withNamespaced(true)
            .build();

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
        server.writeKubeconfig(kubectl.kubeconfig(), "ml");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void createNamespaceConfigMapSecretAndServiceAccountFromTheCommandLine() throws Exception {
        assertThat(kubectl.ok("create", "namespace", "team-a")).isEqualTo("namespace/team-a created\n");
        assertThat(kubectl.ok(
                        "create",
                        "configmap",
                        "settings",
                        "-n",
                        "team-a",
                        "--from-literal=mode=fast",
                        "--from-literal=empty="))
                .isEqualTo("configmap/settings created\n");
        assertThat(kubectl.ok("create", "secret", "generic", "token", "-n", "team-a", "--from-literal=user=admin"))
                .isEqualTo("secret/token created\n");
        assertThat(kubectl.ok("create", "serviceaccount", "runner", "-n", "team-a"))
                .isEqualTo("serviceaccount/runner created\n");

        assertThat(server.client().namespaces().withName("team-a").get()).isNotNull();
        assertThat(server.client()
                        .configMaps()
                        .inNamespace("team-a")
                        .withName("settings")
                        .get()
                        .getData())
                .isEqualTo(Map.of("mode", "fast", "empty", ""));
        assertThat(server.client()
                        .secrets()
                        .inNamespace("team-a")
                        .withName("token")
                        .get()
                        .getData())
                .isEqualTo(
                        Map.of("user", Base64.getEncoder().encodeToString("admin".getBytes(StandardCharsets.UTF_8))));
        assertThat(server.client()
                        .serviceAccounts()
                        .inNamespace("team-a")
                        .withName("runner")
                        .get())
                .isNotNull();
        assertThat(kubectl.ok("get", "namespaces", "-o", "name")).contains("namespace/team-a");
    }

    @Test
    void createDeploymentIsRefusedAtOnceSayingToApplyYaml() throws Exception {
        Instant started = Instant.now();
        Kubectl.Result refused = kubectl.run("create", "deployment", "web", "--image=nginx");
        assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(10));
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err())
                .contains("cannot read this protobuf request body (apps/v1 Deployment)")
                .contains("kubectl apply -f")
                .contains("--dry-run=client -o yaml | kubectl apply -f -");

        // the way the message points to works
        String yaml = kubectl.ok("create", "deployment", "web", "--image=nginx", "--dry-run=client", "-o", "yaml");
        assertThat(kubectl.ok("apply", "-f", kubectl.file("web.yaml", yaml)))
                .isEqualTo("deployment.apps/web created\n");
    }

    @Test
    void serverSideApplyCreatesThenMergesAConfigMap() throws Exception {
        String first = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: limits, namespace: ml}
                data: {gpus: "8", queue: default}
                """;
        assertThat(kubectl.ok("apply", "--server-side", "-f", kubectl.file("cm.yaml", first)))
                .isEqualTo("configmap/limits serverside-applied\n");
        assertThat(server.client()
                        .configMaps()
                        .inNamespace("ml")
                        .withName("limits")
                        .get()
                        .getData())
                .isEqualTo(Map.of("gpus", "8", "queue", "default"));

        assertThat(kubectl.ok(
                        "apply", "--server-side", "-f", kubectl.file("cm.yaml", first.replace("\"8\"", "\"16\""))))
                .isEqualTo("configmap/limits serverside-applied\n");
        assertThat(server.client()
                        .configMaps()
                        .inNamespace("ml")
                        .withName("limits")
                        .get()
                        .getData())
                .isEqualTo(Map.of("gpus", "16", "queue", "default"));
    }

    @Test
    void serverSideApplyMergesContainersByNameAndAppliesStatusOnItsSubresource() throws Exception {
        String deployment = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: trainer, namespace: ml}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: trainer}}
                  template:
                    metadata: {labels: {app: trainer}}
                    spec:
                      containers:
                      - {name: app, image: "trainer:1"}
                      - {name: sidecar, image: "envoy:1"}
                """;
        kubectl.ok("apply", "--server-side", "-f", kubectl.file("trainer.yaml", deployment));
        kubectl.ok(
                "apply",
                "--server-side",
                "--force-conflicts",
                "-f",
                kubectl.file("trainer.yaml", deployment.replace("trainer:1", "trainer:2")));
        assertThat(server.client()
                        .apps()
                        .deployments()
                        .inNamespace("ml")
                        .withName("trainer")
                        .get()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers())
                .extracting(c -> c.getName() + "=" + c.getImage())
                .containsExactly("app=trainer:2", "sidecar=envoy:1");

        String job = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: ssa-job, namespace: ml, labels: {team: nlp}}
                spec: {pytorchReplicaSpecs: {Worker: {replicas: 2}}}
                """;
        assertThat(kubectl.ok("apply", "--server-side", "-f", kubectl.file("job.yaml", job)))
                .isEqualTo("pytorchjob.kubeflow.org/ssa-job serverside-applied\n");
        kubectl.ok("apply", "--server-side", "--subresource=status", "-f", kubectl.file("status.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: ssa-job, namespace: ml}
                status: {phase: Running}
                """));
        GenericKubernetesResource stored = server.client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .withName("ssa-job")
                .get();
        assertThat(stored.get("status", "phase").toString()).isEqualTo("Running");
        assertThat(stored.get("spec", "pytorchReplicaSpecs", "Worker", "replicas")
                        .toString())
                .isEqualTo("2");
        assertThat(stored.getMetadata().getLabels()).containsEntry("team", "nlp");
    }
}
