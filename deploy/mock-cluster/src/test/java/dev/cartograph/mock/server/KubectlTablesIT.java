package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import dev.cartograph.mock.fleet.FleetProfile;
import dev.cartograph.mock.seed.FleetSeeder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code kubectl get} prints from the server-side Tables, and what {@code kubectl describe}
 * finds through event field selectors, with the real kubectl binary (skipped without one). The
 * expected columns are those a Kubernetes 1.32 API server sends (CRD printer columns, pod and node
 * printers); the expected values are the ones written into the objects here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KubectlTablesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
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
    static void start() throws Exception {
        kubectl = Kubectl.onPath(dir).orElse(null);
        Assumptions.assumeTrue(kubectl != null, "kubectl is not on PATH; skipping the kubectl end-to-end test");
        server = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(CatalogCrds.of(Catalog.load().definitions())));
        FleetSeeder.seed(
                server.client(),
                FleetProfile.defaultProfile().cluster("gpu-edge").orElseThrow());
        server.writeKubeconfig(kubectl.kubeconfig(), "ml");
        // the namespace and two jobs in one YAML file
        kubectl.ok(
                "create",
                "-f",
                kubectl.file(
                        "jobs.yaml",
                        "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n---\n"
                                + pytorchJob("bert-finetune", "nlp") + "---\n" + pytorchJob("resnet", "vision")));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void getCustomResourcesPrintsTheCrdPrinterColumns() throws Exception {
        kubectl.ok("apply", "-f", kubectl.file("crd.yaml", java.nio.file.Files.readString(BROKER_CLUSTER_CRD)));
        kubectl.ok("create", "-f", kubectl.file("clusters.yaml", """
                apiVersion: cartograph.dev/v1alpha1
                kind: Cluster
                metadata: {name: gpu-east}
                ---
                apiVersion: cartograph.dev/v1alpha1
                kind: Cluster
                metadata: {name: gpu-new}
                """));
        String heartbeat = Instant.now()
                .minus(7, ChronoUnit.MINUTES)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        kubectl.ok(
                "patch",
                "clusters.cartograph.dev",
                "gpu-east",
                "--subresource",
                "status",
                "--type",
                "merge",
                "-p",
                "{\"status\":{\"ready\":true,\"gpuModelNames\":\"H100\",\"gpus\":{\"total\":32,\"allocated\":10,"
                        + "\"reserved\":2,\"free\":20,\"largestFreeBlock\":8},\"pending\":3,\"heartbeat\":\""
                        + heartbeat + "\"}}");

        String out = kubectl.ok("get", "clusters.cartograph.dev");

        // printer columns in CRD order; no AGE column, as on a real server when a CRD declares columns
        assertThat(out)
                .containsPattern("NAME\\s+READY\\s+GPU MODELS\\s+TOTAL\\s+ALLOCATED\\s+RESERVED\\s+FREE\\s+"
                        + "LARGEST BLOCK\\s+PENDING\\s+HEARTBEAT\\s*\n");
        // values as patched above; the heartbeat 7 minutes ago prints as an age (7m0s..7m59s)
        assertThat(out).containsPattern("gpu-east\\s+true\\s+H100\\s+32\\s+10\\s+2\\s+20\\s+8\\s+3\\s+7m\\d*s?\\s*\n");
        // no status: every printer column is empty
        assertThat(out).containsPattern("gpu-new\\s*\n");
        assertThat(kubectl.ok("get", "ccl", "gpu-east", "-o", "jsonpath={.status.gpus.free}"))
                .isEqualTo("20");
    }

    @Test
    void getQueuesPrintsWhatTheBrokerWritesToTheirStatusAndTheirWeight() throws Exception {
        kubectl.ok("apply", "-f", kubectl.file("queue-crd.yaml", java.nio.file.Files.readString(QUEUE_CRD)));
        kubectl.ok("apply", "-f", EXAMPLE_QUEUES.toString()); // two namespaces, queues team-a (weight 2), team-b (1)
        // the status as QueueReport.Row.status() writes it (broker/core), through the status subresource
        kubectl.ok(
                "patch",
                "queue",
                "team-a",
                "--subresource",
                "status",
                "--type",
                "merge",
                "-p",
                "{\"status\":{\"nominalGPUs\":16,\"inUseGPUs\":24,\"borrowedGPUs\":8,\"waiting\":3,\"share\":0.25,"
                        + "\"gpus\":{\"NVIDIA-H100-80GB-HBM3\":{\"nominal\":16,\"inUse\":24,\"borrowed\":8}},"
                        + "\"problems\":[]}}");

        String out = kubectl.ok("get", "queues");

        assertThat(out).containsPattern("NAME\\s+NOMINAL\\s+IN USE\\s+BORROWED\\s+WAITING\\s+WEIGHT\\s+AGE\\s*\n");
        assertThat(out).containsPattern("team-a\\s+16\\s+24\\s+8\\s+3\\s+2\\s+\\d+s\\s*\n");
        assertThat(out).containsPattern("team-b\\s+1\\s+\\d+s\\s*\n"); // no status yet: only its weight and age
        assertThat(kubectl.ok("get", "queues.cartograph.dev", "-o", "wide"))
                .containsPattern("NAME\\s+NOMINAL\\s+IN USE\\s+BORROWED\\s+WAITING\\s+WEIGHT\\s+PARENT\\s+SHARE\\s+AGE")
                .containsPattern("team-a\\s+16\\s+24\\s+8\\s+3\\s+2\\s+0.25\\s+\\d+s");
        assertThat(kubectl.ok("get", "queue", "team-a", "-o", "jsonpath={.status.gpus.NVIDIA-H100-80GB-HBM3.borrowed}"))
                .isEqualTo("8");
        assertThat(kubectl.ok("get", "queue", "team-b", "-o", "jsonpath={.spec.borrowingLimit.gpus}"))
                .isEqualTo("{\"NVIDIA-H100-80GB-HBM3\":8}");
    }

    @Test
    void getPodsPrintsReadyStatusRestartsAndWideNode() throws Exception {
        String out = kubectl.ok("get", "pods", "-n", "preexisting");
        assertThat(out).containsPattern("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s*\n");
        // gpu-edge: node l40s-1 has 1 of 4 GPUs used, so one seeded pod with one ready container
        assertThat(out).containsPattern("preexisting-gpu-edge-l40s-1\\s+1/1\\s+Running\\s+0\\s+\\d+s\\s*\n");

        String wide = kubectl.ok("get", "pods", "-n", "preexisting", "-o", "wide");
        assertThat(wide)
                .containsPattern("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s+IP\\s+NODE\\s+NOMINATED NODE\\s+"
                        + "READINESS GATES");
        assertThat(wide)
                .containsPattern("preexisting-gpu-edge-l40s-1\\s+1/1\\s+Running\\s+0\\s+\\d+s\\s+<none>\\s+"
                        + "gpu-edge-l40s-1\\s+<none>\\s+<none>");
    }

    @Test
    void getNodesPrintsStatusRolesAndVersion() throws Exception {
        String out = kubectl.ok("get", "nodes");
        assertThat(out).containsPattern("NAME\\s+STATUS\\s+ROLES\\s+AGE\\s+VERSION\\s*\n");
        assertThat(out).containsPattern("gpu-edge-l40s-0\\s+Ready\\s+<none>\\s+\\d+s\\s+v1.32.0-cartograph-mock");
    }

    @Test
    void catalogKindsShowTheClusterAndPhaseABrokerLabelledThemWith() throws Exception {
        kubectl.ok(
                "create",
                "-f",
                kubectl.file(
                        "placed.yaml",
                        pytorchJob("placed", "ops")
                                .replace(
                                        "labels: {team: ops}",
                                        "labels: {team: ops, cartograph.dev/cluster: gpu-east, cartograph.dev/phase: Running}")));

        String out = kubectl.ok("get", "pytorchjob", "placed");

        assertThat(out).containsPattern("NAME\\s+CLUSTER\\s+PHASE\\s+AGE\\s*\n");
        assertThat(out).containsPattern("placed\\s+gpu-east\\s+Running\\s+\\d+s");
        // the columns' JSONPaths, read by kubectl's own (Go) JSONPath, the parser kube-apiserver validates them with
        var columns = CatalogCrds.of(Catalog.load().definitions()).stream()
                .filter(c -> c.getMetadata().getName().equals("pytorchjobs.kubeflow.org"))
                .findFirst()
                .orElseThrow()
                .getSpec()
                .getVersions()
                .get(0)
                .getAdditionalPrinterColumns();
        assertThat(kubectl.ok(
                        "get",
                        "pytorchjob",
                        "placed",
                        "-o",
                        "jsonpath={" + columns.get(0).getJsonPath() + "}"))
                .isEqualTo("gpu-east");
        assertThat(kubectl.ok(
                        "get",
                        "pytorchjob",
                        "placed",
                        "-o",
                        "jsonpath={" + columns.get(1).getJsonPath() + "}"))
                .isEqualTo("Running");
        kubectl.ok("delete", "pytorchjob", "placed");
    }

    @Test
    void labelColumnsSelectorsAndMachineOutputStillWork() throws Exception {
        String labelled = kubectl.ok("get", "pytorchjobs", "-L", "team");
        // CatalogCrds' columns (Cluster, Phase: empty here, no broker labelled these), then the label column
        assertThat(labelled).containsPattern("NAME\\s+CLUSTER\\s+PHASE\\s+AGE\\s+TEAM\\s*\n");
        assertThat(labelled)
                .containsPattern("bert-finetune\\s+\\d+s\\s+nlp")
                .containsPattern("resnet\\s+\\d+s\\s+vision");

        assertThat(kubectl.ok("get", "pytorchjobs", "-l", "team=nlp"))
                .contains("bert-finetune")
                .doesNotContain("resnet");
        assertThat(kubectl.ok("get", "pytorchjobs", "--show-labels"))
                .containsPattern("bert-finetune\\s+\\d+s\\s+team=nlp");
        assertThat(kubectl.ok("get", "pytorchjobs", "-A"))
                .containsPattern("NAMESPACE\\s+NAME\\s+CLUSTER\\s+PHASE\\s+AGE")
                .containsPattern("ml\\s+bert-finetune");

        JsonNode list = JSON.readTree(kubectl.ok("get", "pytorchjobs", "-o", "json"));
        assertThat(list.path("kind").asText()).isEqualTo("List");
        assertThat(list.path("items").findValuesAsText("kind")).contains("PyTorchJob");
        assertThat(kubectl.ok("get", "pytorchjobs", "-o", "jsonpath={.items[*].metadata.name}"))
                .isEqualTo("bert-finetune resnet");
        assertThat(kubectl.ok("get", "pytorchjobs", "--sort-by", ".metadata.name", "-o", "name"))
                .isEqualTo("pytorchjob.kubeflow.org/bert-finetune\npytorchjob.kubeflow.org/resnet\n");
        assertThat(kubectl.ok("get", "pytorchjobs", "--sort-by", ".metadata.labels.team"))
                .containsPattern("(?s)bert-finetune.*resnet");
    }

    @Test
    void describeListsOnlyTheEventsOfTheObject() throws Exception {
        String uid = server.client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace("ml")
                .withName("bert-finetune")
                .get()
                .getMetadata()
                .getUid();
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        server.client()
                .v1()
                .events()
                .inNamespace("ml")
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("bert-finetune.placed")
                        .withNamespace("ml")
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName("bert-finetune")
                        .withNamespace("ml")
                        .withUid(uid)
                        .endInvolvedObject()
                        .withType("Normal")
                        .withReason("Placed")
                        .withMessage("placed on gpu-edge: 4 workers x 8 GPUs")
                        .withNewSource()
                        .withComponent("cartograph-broker")
                        .endSource()
                        .withFirstTimestamp(now)
                        .withLastTimestamp(now)
                        .withCount(1)
                        .build())
                .create();
        server.client()
                .v1()
                .events()
                .inNamespace("ml")
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("resnet.waiting")
                        .withNamespace("ml")
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName("resnet")
                        .withNamespace("ml")
                        .endInvolvedObject()
                        .withType("Warning")
                        .withReason("Unschedulable")
                        .withMessage("no cluster has 2 free GPUs on one node")
                        .withFirstTimestamp(now)
                        .withLastTimestamp(now)
                        .withCount(1)
                        .build())
                .create();

        String described = kubectl.ok("describe", "pytorchjob", "bert-finetune");
        assertThat(described)
                .containsPattern(
                        "Normal\\s+Placed\\s+\\S+\\s+cartograph-broker\\s+placed on gpu-edge: 4 workers x 8 GPUs")
                .doesNotContain("Unschedulable")
                .doesNotContain("Events:  <none>");
        // kubectl also selects on involvedObject.uid: the resnet event names no uid, so it is not resnet's either
        assertThat(kubectl.ok("describe", "pytorchjob", "resnet"))
                .doesNotContain("Placed")
                .doesNotContain("Unschedulable");

        String events = kubectl.ok("get", "events");
        assertThat(events).containsPattern("LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE\\s*\n");
        assertThat(events)
                .containsPattern("\\d+s\\s+Normal\\s+Placed\\s+pytorchjob/bert-finetune\\s+placed on gpu-edge");
        assertThat(kubectl.ok("get", "events", "--field-selector", "involvedObject.name=resnet", "-o", "name"))
                .isEqualTo("event/resnet.waiting\n");
        assertThat(kubectl.ok(
                        "get",
                        "events",
                        "--field-selector",
                        "type!=Normal,involvedObject.kind=PyTorchJob",
                        "-o",
                        "name"))
                .isEqualTo("event/resnet.waiting\n");
    }

    private static String pytorchJob(String name, String team) {
        return """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: NAME, namespace: ml, labels: {team: TEAM}}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 2
                      template:
                        spec:
                          containers:
                          - {name: pytorch, image: pytorch/pytorch:2.4.0}
                """.replace("NAME", name).replace("TEAM", team);
    }

    /** The Queue CRD, and the example Queues of deploy/examples, read where they are kept. */
    static final java.nio.file.Path QUEUE_CRD =
            java.nio.file.Path.of("../../interpreter/kube/src/main/resources/crds/queues.cartograph.dev.yaml");

    static final java.nio.file.Path EXAMPLE_QUEUES = java.nio.file.Path.of("../examples/queues.yaml");

    /** The broker's own Cluster CRD, read where it is kept (the module runs from deploy/mock-cluster). */
    static final java.nio.file.Path BROKER_CLUSTER_CRD =
            java.nio.file.Path.of("../../interpreter/kube/src/main/resources/crds/clusters.cartograph.dev.yaml");
}
