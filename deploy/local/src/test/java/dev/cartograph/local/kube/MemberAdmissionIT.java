package dev.cartograph.local.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.local.FleetOptions;
import dev.cartograph.mock.admission.AdmissionRule;
import dev.cartograph.mock.server.MockApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fleet options' admission denials reach the member's API server (no Kafka, agent or broker needed). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemberAdmissionIT {
    private static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withKind("PyTorchJob")
            .withPlural("pytorchjobs")
            .withNamespaced(true)
            .build();

    @Test
    void aMemberWhoseProfileRefusesPyTorchJobsAnswersTheirCreate403AndOthersAdmitThem() throws Exception {
        FleetOptions options = FleetOptions.defaults(Path.of("unused"))
                .withAdmission(
                        "gpu-edge", AdmissionRule.denying("PyTorchJob", "PyTorchJobs are not allowed on the edge"));
        MockClusters clusters = MockClusters.of(Catalog.load().definitions());

        try (MockApiServer edge = clusters.startMember(
                        options.profile().cluster("gpu-edge").orElseThrow());
                MockApiServer east = clusters.startMember(
                        options.profile().cluster("gpu-east").orElseThrow())) {
            assertThatThrownBy(() -> create(edge)).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                assertThat(e.getCode()).isEqualTo(403);
                assertThat(e.getStatus().getMessage())
                        .isEqualTo("admission webhook \"validate.policy.cartograph.dev\" denied the request: "
                                + "PyTorchJobs are not allowed on the edge");
            });
            assertThat(create(east).getMetadata().getUid()).isNotBlank();
            assertThat(edge.client().nodes().list().getItems()).hasSize(2); // seeding is unaffected
        }
    }

    private static GenericKubernetesResource create(MockApiServer member) {
        GenericKubernetesResource job = new GenericKubernetesResource();
        job.setApiVersion("kubeflow.org/v1");
        job.setKind("PyTorchJob");
        job.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName("train")
                .withNamespace(MockClusters.WORKLOAD_NAMESPACE)
                .build());
        job.setAdditionalProperty("spec", Map.of());
        return member.client()
                .genericKubernetesResources(PYTORCHJOBS)
                .inNamespace(MockClusters.WORKLOAD_NAMESPACE)
                .resource(job)
                .create();
    }
}
