package dev.cartograph.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CartographCrdsTest {
    @Test
    void ownCrdsAreTheClusterQueueAndKartaCrdsFromTheResources() {
        assertThat(CartographCrds.all())
                .extracting(c -> c.getMetadata().getName() + " " + c.getSpec().getScope() + " "
                        + c.getSpec().getNames().getKind())
                .containsExactly(
                        "clusters.cartograph.dev Cluster Cluster",
                        "queues.cartograph.dev Cluster Queue",
                        "kartas.run.ai Cluster Karta");
        assertThat(CartographCrds.all())
                .allSatisfy(c -> assertThat(c.getMetadata().getLabels())
                        .containsEntry("app.kubernetes.io/managed-by", "cartograph"));
    }

    @Test
    void yamlStreamHasOneDocumentPerCrdWithoutServerFields() {
        var crds = new java.util.ArrayList<>(CatalogCrds.of(Catalog.load().definitions()));
        crds.addAll(CartographCrds.all());
        String yaml = CrdYaml.of(crds);
        // 22 catalog CRDs (counted in CatalogCrdsTest) and the 3 own ones
        assertThat(yaml.lines().filter(l -> l.equals("---"))).hasSize(25);
        assertThat(yaml.lines()
                        .filter(l -> l.equals("kind: \"CustomResourceDefinition\"")
                                || l.equals("kind: CustomResourceDefinition")))
                .hasSize(25);
        assertThat(yaml).doesNotContain("resourceVersion").doesNotContain("managedFields");
        assertThat(yaml.lines())
                .noneMatch(l -> l.startsWith("status:")); // subresources.status stays, the object status goes
        List<String> names = yaml.lines().filter(l -> l.startsWith("  name: ")).toList();
        assertThat(names).hasSize(25);
    }

    @Test
    void theQueueCrdServesV1alpha1WithTheStatusSubresourceAndTheQueueReportsColumns() {
        CustomResourceDefinition queues = CartographCrds.read(CartographCrds.QUEUES);

        assertThat(queues.getSpec().getGroup()).isEqualTo("cartograph.dev");
        CustomResourceDefinitionNames names = queues.getSpec().getNames();
        assertThat(List.of(names.getKind(), names.getListKind(), names.getPlural(), names.getSingular()))
                .containsExactly("Queue", "QueueList", "queues", "queue");
        // no short name: Kueue's ClusterQueue is cq and its LocalQueue already claims queue and queues
        assertThat(names.getShortNames()).isNullOrEmpty();
        assertThat(queues.getSpec().getVersions()).hasSize(1);
        CustomResourceDefinitionVersion v1alpha1 =
                queues.getSpec().getVersions().get(0);
        assertThat(v1alpha1.getName()).isEqualTo("v1alpha1");
        assertThat(v1alpha1.getServed() && v1alpha1.getStorage()).isTrue();
        assertThat(v1alpha1.getSubresources().getStatus()).isNotNull(); // QueueObjects writes through /status
        assertThat(v1alpha1.getSubresources().getScale()).isNull();
        // the status keys QueueReport.Row.status() writes (broker/core), the age kubectl shows for any object
        assertThat(v1alpha1.getAdditionalPrinterColumns().stream()
                        .filter(c -> c.getPriority() == null || c.getPriority() == 0)
                        .map(c -> c.getName() + " " + c.getType() + " " + c.getJsonPath()))
                .containsExactly(
                        "Nominal integer .status.nominalGPUs",
                        "In Use integer .status.inUseGPUs",
                        "Borrowed integer .status.borrowedGPUs",
                        "Waiting integer .status.waiting",
                        "Weight number .spec.weight",
                        "Age date .metadata.creationTimestamp");
        JSONSchemaProps spec =
                v1alpha1.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        assertThat(spec.getProperties())
                .containsOnlyKeys(
                        "namespaces", "namespaceSelector", "parent", "weight", "quota", "borrowingLimit", "preemption");
        assertThat(spec.getProperties().get("preemption").getEnum())
                .extracting(JsonNode::asText)
                .containsExactly("Never", "ReclaimOnly", "LowerPriority");
    }
}
