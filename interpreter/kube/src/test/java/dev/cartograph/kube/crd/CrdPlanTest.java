package dev.cartograph.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CrdPlanTest {
    private static final List<CustomResourceDefinition> CATALOG =
            CatalogCrds.of(Catalog.load().definitions());

    private static CustomResourceDefinition wanted(String name) {
        return CATALOG.stream()
                .filter(c -> c.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** What an API server returns for a stored CRD: server metadata, defaults it fills in, and a status. */
    private static CustomResourceDefinition asStored(CustomResourceDefinition crd) {
        return new CustomResourceDefinitionBuilder(crd)
                .editMetadata()
                .withResourceVersion("41")
                .withUid("u-1")
                .addToLabels("team", "ml-platform")
                .endMetadata()
                .editSpec()
                .withNewConversion()
                .withStrategy("None")
                .endConversion()
                .endSpec()
                .withNewStatus()
                .withStoredVersions(List.of("v1"))
                .endStatus()
                .build();
    }

    @Test
    void aBareClusterGetsEveryCrdCreated() {
        assertThat(CrdPlan.of(CATALOG, CrdPlan.Cluster.BARE))
                .hasSize(CATALOG.size())
                .allSatisfy(a -> assertThat(a.outcome()).isEqualTo(CrdAction.Outcome.CREATE));
    }

    @Test
    void ownCopyWithServerDefaultsAndForeignLabelsIsUnchanged() {
        CustomResourceDefinition pytorch = wanted("pytorchjobs.kubeflow.org");
        CrdAction action = CrdPlan.of(
                        List.of(pytorch),
                        new CrdPlan.Cluster(Map.of(pytorch.getMetadata().getName(), asStored(pytorch)), Map.of()))
                .get(0);
        assertThat(action.outcome()).isEqualTo(CrdAction.Outcome.UNCHANGED);
        assertThat(action.describe()).isEqualTo("unchanged");
    }

    @Test
    void ownCopyMissingAPrinterColumnIsUpdatedKeepingOthersLabelsAndTheResourceVersion() {
        CustomResourceDefinition pytorch = wanted("pytorchjobs.kubeflow.org");
        CustomResourceDefinition old = asStored(new CustomResourceDefinitionBuilder(pytorch)
                .editSpec()
                .editFirstVersion()
                .withAdditionalPrinterColumns(List.of())
                .endVersion()
                .endSpec()
                .build());
        CrdAction action = CrdPlan.of(
                        List.of(pytorch), new CrdPlan.Cluster(Map.of("pytorchjobs.kubeflow.org", old), Map.of()))
                .get(0);
        assertThat(action.outcome()).isEqualTo(CrdAction.Outcome.UPDATE);
        assertThat(action.crd().getMetadata().getResourceVersion()).isEqualTo("41");
        assertThat(action.crd().getMetadata().getLabels())
                .containsEntry("team", "ml-platform")
                .containsEntry("app.kubernetes.io/managed-by", "cartograph");
        assertThat(action.crd().getSpec().getVersions().get(0).getAdditionalPrinterColumns())
                .hasSize(3);
    }

    @Test
    void anOperatorsCrdOfTheSameNameIsSkippedAndNamed() {
        CustomResourceDefinition helm = new CustomResourceDefinitionBuilder(wanted("jobsets.jobset.x-k8s.io"))
                .editMetadata()
                .withLabels(Map.of("app.kubernetes.io/managed-by", "Helm"))
                .endMetadata()
                .build();
        CustomResourceDefinition bare = new CustomResourceDefinitionBuilder(wanted("rayjobs.ray.io"))
                .editMetadata()
                .withLabels(Map.of())
                .endMetadata()
                .build();
        List<CrdAction> actions = CrdPlan.of(
                List.of(wanted("jobsets.jobset.x-k8s.io"), wanted("rayjobs.ray.io")),
                new CrdPlan.Cluster(Map.of("jobsets.jobset.x-k8s.io", helm, "rayjobs.ray.io", bare), Map.of()));
        assertThat(actions)
                .extracting(CrdAction::describe)
                .containsExactly(
                        "skipped (served by CRD jobsets.jobset.x-k8s.io, managed by Helm)",
                        "skipped (served by CRD rayjobs.ray.io, not managed by Cartograph)");
        assertThat(actions).allSatisfy(a -> assertThat(a.outcome().writes()).isFalse());
    }

    @Test
    void aKindServedWithoutACrdOfThatNameIsSkipped() {
        CrdAction action = CrdPlan.of(
                        List.of(wanted("inferenceservices.serving.kserve.io")),
                        new CrdPlan.Cluster(
                                Map.of(),
                                Map.of(
                                        CrdPlan.Cluster.key("serving.kserve.io", "InferenceService"),
                                        "serving.kserve.io/v1beta1 isvcs")))
                .get(0);
        assertThat(action.describe()).isEqualTo("skipped (served by serving.kserve.io/v1beta1 isvcs)");
    }

    @Test
    void theClusterCrdIsCartographsEvenWithoutTheLabel() {
        CustomResourceDefinition wanted = CartographCrds.all().get(0);
        CustomResourceDefinition appliedByKubectl = CartographCrds.read(CartographCrds.CLUSTERS);
        assertThat(appliedByKubectl.getMetadata().getLabels()).isNullOrEmpty();
        CrdAction action = CrdPlan.of(
                        List.of(wanted),
                        new CrdPlan.Cluster(Map.of("clusters.cartograph.dev", asStored(appliedByKubectl)), Map.of()))
                .get(0);
        assertThat(action.outcome()).isEqualTo(CrdAction.Outcome.UPDATE); // only the managed-by label is new
        assertThat(action.crd().getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "cartograph");
    }

    @Test
    void theClusterCrdTheHelmChartInstalledIsLeftToHelm() {
        CustomResourceDefinition wanted = CartographCrds.all().get(0);
        CustomResourceDefinition fromChart = new CustomResourceDefinitionBuilder(
                        CartographCrds.read(CartographCrds.CLUSTERS))
                .editMetadata()
                .withLabels(Map.of("app.kubernetes.io/managed-by", "Helm"))
                .endMetadata()
                .build();
        CrdAction action = CrdPlan.of(
                        List.of(wanted),
                        new CrdPlan.Cluster(Map.of("clusters.cartograph.dev", asStored(fromChart)), Map.of()))
                .get(0);
        assertThat(action.outcome()).isEqualTo(CrdAction.Outcome.SKIP);
        assertThat(action.describe()).isEqualTo("skipped (served by CRD clusters.cartograph.dev, managed by Helm)");
    }
}
