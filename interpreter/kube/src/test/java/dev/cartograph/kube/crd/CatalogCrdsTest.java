package dev.cartograph.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CatalogCrdsTest {
    /** kind.group -> plural, written by hand from the upstream CRDs (kubectl api-resources on real clusters). */
    private static final Map<String, String> EXPECTED_PLURALS = Map.ofEntries(
            Map.entry("NIMCache.apps.nvidia.com", "nimcaches"),
            Map.entry("NIMService.apps.nvidia.com", "nimservices"),
            Map.entry("Job.batch.volcano.sh", "jobs"),
            Map.entry("PodCliqueSet.grove.io", "podcliquesets"),
            Map.entry("JobSet.jobset.x-k8s.io", "jobsets"),
            Map.entry("JAXJob.kubeflow.org", "jaxjobs"),
            Map.entry("MPIJob.kubeflow.org", "mpijobs"),
            Map.entry("PaddleJob.kubeflow.org", "paddlejobs"),
            Map.entry("PyTorchJob.kubeflow.org", "pytorchjobs"),
            Map.entry("TFJob.kubeflow.org", "tfjobs"),
            Map.entry("XGBoostJob.kubeflow.org", "xgboostjobs"),
            Map.entry("LeaderWorkerSet.leaderworkerset.x-k8s.io", "leaderworkersets"),
            Map.entry("Milvus.milvus.io", "milvuses"),
            Map.entry("DynamoGraphDeployment.nvidia.com", "dynamographdeployments"),
            Map.entry("RayCluster.ray.io", "rayclusters"),
            Map.entry("RayJob.ray.io", "rayjobs"),
            Map.entry("RayService.ray.io", "rayservices"),
            Map.entry("Service.serving.knative.dev", "services"),
            Map.entry("InferenceService.serving.kserve.io", "inferenceservices"),
            Map.entry("LLMInferenceService.serving.kserve.io", "llminferenceservices"),
            Map.entry("SparkApplication.sparkoperator.k8s.io", "sparkapplications"),
            Map.entry("TrainJob.trainer.kubeflow.org", "trainjobs"));

    /**
     * The catalog's 30 definition files (catalog/src/main/resources/cartograph-catalog), counted by hand: 6 are
     * built-in kinds (core-pod, batch-job, batch-cronjob, apps-deployment, apps-statefulset, apps-replicaset), 24
     * custom, of which DynamoGraphDeployment and LLMInferenceService come in two versions each: 22 CRDs.
     */
    private static final int CUSTOM_KINDS = 22;

    private static final Set<String> BUILT_IN =
            Set.of("Pod.", "Job.batch", "CronJob.batch", "Deployment.apps", "StatefulSet.apps", "ReplicaSet.apps");

    private static Definitions catalog;
    private static List<CustomResourceDefinition> crds;

    @BeforeAll
    static void load() {
        catalog = Catalog.load().definitions();
        crds = CatalogCrds.of(catalog);
    }

    @Test
    void everyCatalogKindIsEitherBuiltInOrInTheExpectationTable() {
        Set<String> catalogKinds = catalog.all().stream()
                .map(d -> d.kind().kind() + "." + d.kind().group())
                .collect(Collectors.toSet());
        assertThat(catalogKinds)
                .allSatisfy(k -> assertThat(BUILT_IN.contains(k) || EXPECTED_PLURALS.containsKey(k))
                        .as("%s is neither built in nor in the expectation table", k)
                        .isTrue());
        assertThat(catalogKinds).containsAll(EXPECTED_PLURALS.keySet());
    }

    @Test
    void everyCustomCatalogKindGetsOneCrdWithTheUpstreamPlural() {
        Map<String, String> actual = crds.stream()
                .collect(Collectors.toMap(
                        c -> c.getSpec().getNames().getKind() + "."
                                + c.getSpec().getGroup(),
                        c -> c.getSpec().getNames().getPlural()));
        assertThat(actual).isEqualTo(EXPECTED_PLURALS);
        assertThat(crds)
                .allSatisfy(c -> assertThat(c.getMetadata().getName())
                        .isEqualTo(c.getSpec().getNames().getPlural() + "."
                                + c.getSpec().getGroup()));
    }

    @Test
    void exactlyOneCrdPerCustomKindCountedByHand() {
        assertThat(crds).hasSize(CUSTOM_KINDS);
        assertThat(EXPECTED_PLURALS).hasSize(CUSTOM_KINDS);
        assertThat(crds.stream().map(c -> c.getMetadata().getName()).distinct()).hasSize(CUSTOM_KINDS);
    }

    @Test
    void everyCrdHasClusterPhaseAndAgeColumnsReadingTheBrokersHubLabels() {
        assertThat(crds)
                .allSatisfy(c -> assertThat(c.getSpec().getVersions())
                        .allSatisfy(v -> assertThat(v.getAdditionalPrinterColumns())
                                .extracting(col -> col.getName() + " " + col.getType() + " " + col.getJsonPath())
                                .containsExactly(
                                        // the label keys as agent/protocol's MetadataKeys spells them, dots escaped for
                                        // JSONPath
                                        "Cluster string .metadata.labels.cartograph\\.dev/cluster",
                                        "Phase string .metadata.labels.cartograph\\.dev/phase",
                                        "Age date .metadata.creationTimestamp")));
    }

    @Test
    void everyCrdIsLabelledAsManagedByCartograph() {
        assertThat(crds)
                .allSatisfy(c -> assertThat(c.getMetadata().getLabels())
                        .containsEntry("app.kubernetes.io/managed-by", "cartograph"));
    }

    @Test
    void onlyTheProtectedK8sIoGroupCarriesTheApprovalAnnotation() {
        // of the 22, only sparkoperator.k8s.io ends in .k8s.io (jobset.x-k8s.io and leaderworkerset.x-k8s.io do not)
        assertThat(crds)
                .filteredOn(c -> c.getMetadata().getAnnotations() != null
                        && c.getMetadata().getAnnotations().containsKey("api-approved.kubernetes.io"))
                .extracting(c -> c.getMetadata().getName())
                .containsExactly("sparkapplications.sparkoperator.k8s.io");
    }

    @Test
    void builtInKindsAreSkipped() {
        assertThat(crds)
                .noneMatch(c -> Set.of("", "apps", "batch").contains(c.getSpec().getGroup()));
    }

    @Test
    void everyCrdIsNamespacedKeepsUnknownFieldsAndHasTheStatusSubresource() {
        assertThat(crds).allSatisfy(c -> {
            assertThat(c.getSpec().getScope()).isEqualTo("Namespaced");
            assertThat(c.getSpec().getNames().getSingular())
                    .isEqualTo(c.getSpec().getNames().getKind().toLowerCase());
            assertThat(c.getSpec().getVersions()).allSatisfy(v -> {
                assertThat(v.getServed()).isTrue();
                assertThat(v.getSchema().getOpenAPIV3Schema().getXKubernetesPreserveUnknownFields())
                        .isTrue();
                assertThat(v.getSubresources().getStatus()).isNotNull();
            });
        });
    }

    @Test
    void everyCatalogVersionIsServedAndTheNewestIsStored() {
        for (var def : catalog.all()) {
            GroupVersionKind k = def.kind();
            if (BUILT_IN.contains(k.kind() + "." + k.group())) {
                continue;
            }
            CustomResourceDefinition crd = crd(k.kind() + "." + k.group());
            assertThat(crd.getSpec().getVersions())
                    .extracting(CustomResourceDefinitionVersion::getName)
                    .contains(k.version());
        }
        assertThat(versions("DynamoGraphDeployment.nvidia.com")).containsExactly("v1beta1:storage", "v1alpha1");
        assertThat(versions("LLMInferenceService.serving.kserve.io")).containsExactly("v1alpha2:storage", "v1alpha1");
        assertThat(versions("PyTorchJob.kubeflow.org")).containsExactly("v1:storage");
    }

    @Test
    void upstreamShortNamesAreKept() {
        assertThat(crd("LeaderWorkerSet.leaderworkerset.x-k8s.io")
                        .getSpec()
                        .getNames()
                        .getShortNames())
                .containsExactly("lws");
        assertThat(crd("InferenceService.serving.kserve.io")
                        .getSpec()
                        .getNames()
                        .getShortNames())
                .containsExactly("isvc");
        assertThat(crd("Service.serving.knative.dev").getSpec().getNames().getShortNames())
                .containsExactly("kservice", "ksvc");
        assertThat(crd("Job.batch.volcano.sh").getSpec().getNames().getShortNames())
                .containsExactly("vcjob", "vj");
        assertThat(crd("SparkApplication.sparkoperator.k8s.io")
                        .getSpec()
                        .getNames()
                        .getShortNames())
                .containsExactly("sparkapp");
    }

    private static List<String> versions(String kindGroup) {
        return crd(kindGroup).getSpec().getVersions().stream()
                .map(v -> v.getName() + (Boolean.TRUE.equals(v.getStorage()) ? ":storage" : ""))
                .toList();
    }

    private static CustomResourceDefinition crd(String kindGroup) {
        return crds.stream()
                .filter(c ->
                        (c.getSpec().getNames().getKind() + "." + c.getSpec().getGroup()).equals(kindGroup))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no CRD for " + kindGroup));
    }
}
