package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl get -w} (and {@code kubectl wait}) with the real kubectl binary (skipped without one):
 * kubectl watches over HTTP with a chunked stream of WatchEvents carrying one-row Tables. Each test
 * starts a watch, changes an object through the fabric8 client while it runs, and waits for the line
 * kubectl prints for that change. Expected columns and values are the ones written into the objects here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KubectlWatchIT {
    private static final Duration SEEN_WITHIN = Duration.ofSeconds(20);
    private static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withKind("PyTorchJob")
            .withPlural("pytorchjobs")
            .withNamespaced(true)
            .build();
    private static final ResourceDefinitionContext CLUSTERS = new ResourceDefinitionContext.Builder()
            .withGroup("cartograph.dev")
            .withVersion("v1alpha1")
            .withKind("Cluster")
            .withPlural("clusters")
            .withNamespaced(false)
            .build();

    private static MockApiServer server;
    private static Kubectl kubectl;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        kubectl = Kubectl.onPath(dir).orElse(null);
        Assumptions.assumeTrue(kubectl != null, "kubectl is not on PATH; skipping the kubectl end-to-end test");
        server = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(CatalogCrds.of(Catalog.load().definitions())));
        server.writeKubeconfig(kubectl.kubeconfig(), "ml");
        kubectl.ok("apply", "-f", kubectl.file("crd.yaml", Files.readString(KubectlTablesIT.BROKER_CLUSTER_CRD)));
        server.client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .resource(pytorchJob("existing", "nlp"))
                .create();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void getWatchPrintsACustomResourceCreatedWhileItRuns() throws Exception {
        try (Kubectl.Running watch = kubectl.start("get", "pytorchjobs", "-w")) {
            watch.awaitOutput("NAME\\s+CLUSTER\\s+PHASE\\s+AGE\\s*\n.*existing\\s+\\d+s", SEEN_WITHIN);

            server.client()
                    .genericKubernetesResources(PYTORCHJOBS)
                    .inNamespace("ml")
                    .resource(pytorchJob("created-later", "cv"))
                    .create();

            String out = watch.awaitOutput("created-later\\s+\\d+s", SEEN_WITHIN);
            // the list printed "existing" once; the watch starts after the list, so it does not repeat it
            assertThat(out.split("existing", -1)).hasSize(2);
            assertThat(out.split("NAME", -1)).hasSize(2);
        }
    }

    @Test
    void watchOnlyWideWithALabelColumnPrintsPodsAsTheyChange() throws Exception {
        awaitOpenWatches(0);
        try (Kubectl.Running watch =
                kubectl.start("get", "pods", "-n", "watched", "--watch-only", "-o", "wide", "-L", "app")) {
            awaitOpenWatches(1);
            assertThat(watch.out())
                    .as("no pods exist, and --watch-only does not print the list")
                    .isEmpty();

            server.client()
                    .pods()
                    .inNamespace("watched")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("web-0")
                            .withNamespace("watched")
                            .addToLabels("app", "web")
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("gpu-east-0")
                            .addNewContainer()
                            .withName("app")
                            .withImage("nginx")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            watch.awaitOutput(
                    "NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s+IP\\s+NODE\\s+NOMINATED NODE\\s+READINESS GATES\\s+APP\\s*\n"
                            + "web-0\\s+0/1\\s+\\S+\\s+0\\s+\\d+s\\s+<none>\\s+gpu-east-0\\s+<none>\\s+<none>\\s+web\\s*\n",
                    SEEN_WITHIN);

            server.client()
                    .pods()
                    .inNamespace("watched")
                    .withName("web-0")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToLabels("app", "web-v2")
                            .endMetadata()
                            .build());
            watch.awaitOutput("web-0\\s+.*\\s+web-v2\\s*\n", SEEN_WITHIN);

            server.client().pods().inNamespace("watched").withName("web-0").delete();
            String out = watch.awaitOutput("(web-0.*\n){3}", SEEN_WITHIN);
            assertThat(out.split("NAME", -1)).as("the header is printed once").hasSize(2);
        }
    }

    @Test
    void getEventsWatchPrintsAnEventAsItIsRecorded() throws Exception {
        awaitOpenWatches(0);
        try (Kubectl.Running watch = kubectl.start("get", "events", "-n", "ml", "--watch")) {
            awaitOpenWatches(1);
            String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            server.client()
                    .v1()
                    .events()
                    .inNamespace("ml")
                    .resource(new EventBuilder()
                            .withNewMetadata()
                            .withName("existing.placed")
                            .withNamespace("ml")
                            .endMetadata()
                            .withNewInvolvedObject()
                            .withApiVersion("kubeflow.org/v1")
                            .withKind("PyTorchJob")
                            .withName("existing")
                            .withNamespace("ml")
                            .endInvolvedObject()
                            .withType("Normal")
                            .withReason("Placed")
                            .withMessage("placed on gpu-east: 2 pods x 8 GPUs")
                            .withFirstTimestamp(now)
                            .withLastTimestamp(now)
                            .withCount(1)
                            .build())
                    .create();

            watch.awaitOutput(
                    "LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE\\s*\n"
                            + "\\d+s\\s+Normal\\s+Placed\\s+pytorchjob/existing\\s+placed on gpu-east: 2 pods x 8 GPUs",
                    SEEN_WITHIN);
        }
    }

    @Test
    void watchingTheBrokersClusterShowsItsStatusColumnsChange() throws Exception {
        server.client()
                .genericKubernetesResources(CLUSTERS)
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("cartograph.dev/v1alpha1")
                        .withKind("Cluster")
                        .withNewMetadata()
                        .withName("gpu-west")
                        .endMetadata()
                        .build())
                .create();
        try (Kubectl.Running watch = kubectl.start("get", "clusters.cartograph.dev", "gpu-west", "-w")) {
            watch.awaitOutput("NAME\\s+READY\\s+GPU MODELS.*\ngpu-west\\s*\n", SEEN_WITHIN);

            GenericKubernetesResource cluster = server.client()
                    .genericKubernetesResources(CLUSTERS)
                    .withName("gpu-west")
                    .get();
            cluster.setAdditionalProperty(
                    "status",
                    Map.of(
                            "ready",
                            true,
                            "gpuModelNames",
                            "A100",
                            "gpus",
                            Map.of("total", 64, "allocated", 40, "reserved", 0, "free", 24, "largestFreeBlock", 8),
                            "pending",
                            0));
            server.client()
                    .genericKubernetesResources(CLUSTERS)
                    .resource(cluster)
                    .updateStatus();

            // READY GPU-MODELS TOTAL ALLOCATED RESERVED FREE LARGEST-BLOCK PENDING, as written above
            watch.awaitOutput("gpu-west\\s+true\\s+A100\\s+64\\s+40\\s+0\\s+24\\s+8\\s+0", SEEN_WITHIN);
        }
    }

    @Test
    void waitReturnsWhenTheStatusItWaitsForArrives() throws Exception {
        server.client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .resource(pytorchJob("waited-on", "nlp"))
                .create();
        awaitOpenWatches(0);
        try (Kubectl.Running wait = kubectl.start(
                "wait", "--for=jsonpath={.status.phase}=Running", "pytorchjob/waited-on", "--timeout=60s")) {
            awaitOpenWatches(1);
            GenericKubernetesResource job = server.client()
                    .genericKubernetesResources(PYTORCHJOBS)
                    .inNamespace("ml")
                    .withName("waited-on")
                    .get();
            job.setAdditionalProperty("status", Map.of("phase", "Running"));
            server.client()
                    .genericKubernetesResources(PYTORCHJOBS)
                    .inNamespace("ml")
                    .resource(job)
                    .updateStatus();

            assertThat(wait.awaitExit(SEEN_WITHIN)).isZero();
            assertThat(wait.out()).contains("pytorchjob.kubeflow.org/waited-on condition met");
        }
    }

    /** Waits until exactly {@code count} HTTP watches are open (kubectl has listed and is now watching). */
    private static void awaitOpenWatches(int count) throws InterruptedException {
        Instant deadline = Instant.now().plus(SEEN_WITHIN);
        while (server.openWatches() != count) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("expected " + count + " open watches, there are " + server.openWatches());
            }
            Thread.sleep(20);
        }
    }

    private static GenericKubernetesResource pytorchJob(String name, String team) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("kubeflow.org/v1")
                .withKind("PyTorchJob")
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .addToLabels("team", team)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("pytorchReplicaSpecs", Map.of()))
                .build();
    }
}
