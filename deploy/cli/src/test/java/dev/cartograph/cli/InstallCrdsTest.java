package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.mock.server.MockApiServer;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * carto install crds on a bare hub: the mock API server of deploy/mock-cluster started without CRDs, whose
 * discovery (what kubectl and the broker read) follows the CRDs stored on it. Then one object of every catalog
 * kind, from the catalog's own testdata, is created and read back.
 *
 * <p>Counted by hand from catalog/src/main/resources/cartograph-catalog: 30 definitions, 6 of built-in kinds
 * (Pod, Job, CronJob, Deployment, StatefulSet, ReplicaSet), 24 of custom kinds in 22 group/kinds (two kinds have two
 * versions): 22 catalog CRDs, plus Cartograph's 3 (clusters.cartograph.dev, queues.cartograph.dev, kartas.run.ai) = 25
 * lines.
 */
@Timeout(120)
class InstallCrdsTest {
    private static final int CRDS = 25;
    private static final Path TESTDATA = Path.of("../../catalog/src/test/resources/testdata");
    private static final Set<String> BUILT_IN_TESTDATA = Set.of(
            "core-pod-v1",
            "batch-job-v1",
            "batch-cronjob-v1",
            "apps-deployment-v1",
            "apps-statefulset-v1",
            "apps-replicaset-v1");

    @TempDir
    Path dir;

    MockApiServer hub;
    Path kubeconfig;

    @BeforeEach
    void start() {
        hub = MockApiServer.start();
        kubeconfig = hub.writeKubeconfig(dir.resolve("kubeconfig"), "ml");
    }

    @AfterEach
    void stop() {
        hub.close();
    }

    private CartoTest.Run install(String... more) {
        List<String> args = new ArrayList<>(List.of("install", "crds", "--kubeconfig", kubeconfig.toString()));
        args.addAll(List.of(more));
        return CartoTest.carto(args.toArray(String[]::new));
    }

    /** The first testdata object of each custom-kind definition (24 definitions). */
    private static List<JsonNode> oneObjectPerCustomDefinition() throws IOException {
        List<JsonNode> objects = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(TESTDATA)) {
            for (Path d : dirs.sorted().toList()) {
                if (BUILT_IN_TESTDATA.contains(d.getFileName().toString())) {
                    continue;
                }
                Path first;
                try (Stream<Path> files = Files.list(d)) {
                    first = files.filter(f -> f.toString().endsWith(".yaml"))
                            .sorted()
                            .findFirst()
                            .orElseThrow();
                }
                try (InputStream in = Files.newInputStream(first)) {
                    objects.add(Documents.read(in).get(0).path("object"));
                }
            }
        }
        return objects;
    }

    private Optional<APIResource> served(KubernetesClient client, String apiVersion, String kind) {
        try {
            APIResourceList list = client.getApiResources(apiVersion);
            return list == null || list.getResources() == null
                    ? Optional.empty()
                    : list.getResources().stream()
                            .filter(r ->
                                    r.getKind().equals(kind) && !r.getName().contains("/"))
                            .findFirst();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Test
    void bareHubAcceptsEveryCatalogKindAfterInstall() throws Exception {
        List<JsonNode> objects = oneObjectPerCustomDefinition();
        assertThat(objects).hasSize(24);
        KubernetesClient client = hub.client();
        for (JsonNode o : objects) {
            assertThat(served(
                            client,
                            o.path("apiVersion").asText(),
                            o.path("kind").asText()))
                    .as(
                            "a bare hub does not serve %s %s",
                            o.path("apiVersion").asText(), o.path("kind").asText())
                    .isEmpty();
        }

        CartoTest.Run run = install();

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out().lines())
                .hasSize(CRDS)
                .allSatisfy(l -> assertThat(l).endsWith(" created"));
        assertThat(run.out())
                .contains("customresourcedefinition.apiextensions.k8s.io/clusters.cartograph.dev created")
                .contains("customresourcedefinition.apiextensions.k8s.io/queues.cartograph.dev created")
                .contains("customresourcedefinition.apiextensions.k8s.io/pytorchjobs.kubeflow.org created")
                .doesNotContain("/deployments.apps ")
                .doesNotContain("/jobs.batch ");
        for (JsonNode o : objects) {
            String apiVersion = o.path("apiVersion").asText();
            String kind = o.path("kind").asText();
            APIResource type = served(client, apiVersion, kind)
                    .orElseThrow(() -> new AssertionError("not served after install: " + apiVersion + " " + kind));
            ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder()
                    .withGroup(apiVersion.substring(0, apiVersion.indexOf('/')))
                    .withVersion(apiVersion.substring(apiVersion.indexOf('/') + 1))
                    .withKind(kind)
                    .withPlural(type.getName())
                    .withNamespaced(true)
                    .build();
            GenericKubernetesResource resource = Documents.json().treeToValue(o, GenericKubernetesResource.class);
            String namespace = o.path("metadata").path("namespace").asText("ml");
            client.genericKubernetesResources(ctx)
                    .inNamespace(namespace)
                    .resource(resource)
                    .create();
            GenericKubernetesResource back = client.genericKubernetesResources(ctx)
                    .inNamespace(namespace)
                    .withName(o.path("metadata").path("name").asText())
                    .get();
            assertThat(back).as("%s %s read back", apiVersion, kind).isNotNull();
            JsonNode spec =
                    Documents.json().valueToTree(back.getAdditionalProperties().get("spec"));
            assertThat(spec)
                    .as("%s %s spec", apiVersion, kind)
                    .isEqualTo(o.path("spec").isMissingNode() ? null : o.path("spec"));
        }
    }

    @Test
    void afterInstallTheExampleQueuesAreCreatedAndTheirStatusIsWrittenThroughTheSubresource() throws Exception {
        assertThat(install().exit()).isZero();
        ResourceDefinitionContext queues = new ResourceDefinitionContext.Builder()
                .withGroup("cartograph.dev")
                .withVersion("v1alpha1")
                .withKind("Queue")
                .withPlural("queues")
                .withNamespaced(false)
                .build();
        KubernetesClient client = hub.client();
        List<JsonNode> examples;
        try (InputStream in = Files.newInputStream(Path.of("../examples/queues.yaml"))) {
            examples = Documents.read(in).stream()
                    .filter(d -> d.path("kind").asText().equals("Queue"))
                    .toList();
        }
        for (JsonNode q : examples) {
            client.genericKubernetesResources(queues)
                    .resource(Documents.json().treeToValue(q, GenericKubernetesResource.class))
                    .create();
        }
        assertThat(served(client, "cartograph.dev/v1alpha1", "Queue"))
                .get()
                .satisfies(r -> assertThat(r.getNamespaced()).isFalse());

        // as the broker's QueueObjects writes it: read, set status, update through /status
        GenericKubernetesResource teamA =
                client.genericKubernetesResources(queues).withName("team-a").get();
        teamA.setAdditionalProperty("status", Map.of("nominalGPUs", 16, "inUseGPUs", 8, "borrowedGPUs", 0));
        client.genericKubernetesResources(queues).resource(teamA).updateStatus();

        GenericKubernetesResource back =
                client.genericKubernetesResources(queues).withName("team-a").get();
        assertThat(back.getAdditionalProperties().get("status"))
                .isEqualTo(Map.of("nominalGPUs", 16, "inUseGPUs", 8, "borrowedGPUs", 0));
        JsonNode spec =
                Documents.json().valueToTree(back.getAdditionalProperties().get("spec"));
        assertThat(spec).isEqualTo(examples.get(0).path("spec"));
        assertThat(client.genericKubernetesResources(queues).list().getItems())
                .extracting(q -> q.getMetadata().getName())
                .containsExactlyInAnyOrder("team-a", "team-b");
    }

    @Test
    void secondRunChangesNothingAndSaysUnchanged() {
        assertThat(install().exit()).isZero();
        Map<String, String> versions = resourceVersions();

        CartoTest.Run again = install();

        assertThat(again.exit()).isZero();
        assertThat(again.out().lines())
                .hasSize(CRDS)
                .allSatisfy(l -> assertThat(l).endsWith(" unchanged"));
        assertThat(resourceVersions()).isEqualTo(versions);
    }

    @Test
    void anOperatorsCrdIsLeftAloneAndOwnOutdatedCrdIsUpdated() {
        CustomResourceDefinition operators = new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("jobsets.jobset.x-k8s.io")
                .withLabels(Map.of("app.kubernetes.io/managed-by", "Helm"))
                .endMetadata()
                .withNewSpec()
                .withGroup("jobset.x-k8s.io")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("JobSet")
                .withPlural("jobsets")
                .endNames()
                .addNewVersion()
                .withName("v1alpha2")
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withDescription("JobSet is the Schema for the jobsets API")
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
        var crds = hub.client().apiextensions().v1().customResourceDefinitions();
        crds.resource(operators).create();
        assertThat(install().exit()).isZero();
        CustomResourceDefinition ours = crds.withName("rayjobs.ray.io").get();
        ours.getSpec().getVersions().get(0).setAdditionalPrinterColumns(List.of());
        crds.resource(ours).update();
        String operatorsVersion =
                crds.withName("jobsets.jobset.x-k8s.io").get().getMetadata().getResourceVersion();

        CartoTest.Run again = install();

        assertThat(again.exit()).isZero();
        assertThat(again.out())
                .contains("jobsets.jobset.x-k8s.io skipped (served by CRD jobsets.jobset.x-k8s.io, managed by Helm)")
                .contains("rayjobs.ray.io updated");
        assertThat(again.out().lines().filter(l -> l.endsWith(" unchanged"))).hasSize(CRDS - 2);
        CustomResourceDefinition after =
                crds.withName("jobsets.jobset.x-k8s.io").get();
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(operatorsVersion);
        assertThat(after.getSpec()
                        .getVersions()
                        .get(0)
                        .getSchema()
                        .getOpenAPIV3Schema()
                        .getDescription())
                .isEqualTo("JobSet is the Schema for the jobsets API");
        assertThat(crds.withName("rayjobs.ray.io")
                        .get()
                        .getSpec()
                        .getVersions()
                        .get(0)
                        .getAdditionalPrinterColumns())
                .extracting(c -> c.getName())
                .containsExactly("Cluster", "Phase", "Age");
    }

    @Test
    void dryRunPrintsTheYamlAndSendsNothing() throws Exception {
        CartoTest.Run run = install("--dry-run");

        assertThat(run.exit()).as(run.err()).isZero();
        List<JsonNode> docs = Documents.read(
                new java.io.ByteArrayInputStream(run.out().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(docs)
                .hasSize(CRDS)
                .allSatisfy(d -> assertThat(d.path("kind").asText()).isEqualTo("CustomResourceDefinition"));
        assertThat(run.err().lines())
                .hasSize(CRDS)
                .allSatisfy(l -> assertThat(l).endsWith(" created (dry run)"));
        assertThat(hub.client()
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .list()
                        .getItems())
                .isEmpty();
    }

    @Test
    void dryRunAllNeedsNoCluster() throws Exception {
        CartoTest.Run run = CartoTest.carto("install", "crds", "--dry-run", "--all", "--kubeconfig", "/nonexistent");

        assertThat(run.exit()).isZero();
        List<JsonNode> docs = Documents.read(
                new java.io.ByteArrayInputStream(run.out().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(docs.stream()
                        .map(d -> d.path("metadata").path("name").asText())
                        .collect(Collectors.toSet()))
                .hasSize(CRDS)
                .contains(
                        "clusters.cartograph.dev",
                        "queues.cartograph.dev",
                        "kartas.run.ai",
                        "sparkapplications.sparkoperator.k8s.io");
    }

    @Test
    void allWithoutDryRunIsAUsageError() {
        CartoTest.Run run = install("--all");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--all only goes with --dry-run");
    }

    private Map<String, String> resourceVersions() {
        return hub.client().apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                .collect(Collectors.toMap(
                        c -> c.getMetadata().getName(), c -> c.getMetadata().getResourceVersion()));
    }
}
