package dev.cartograph.mock.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.mock.admission.AdmissionRule;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FleetProfileTest {

    @Test
    void theBundledTopologyProfileLabelsItsPoolsWithTheirCliques() {
        FleetProfile p = FleetProfile.bundled("topology").orElseThrow();
        ClusterProfile west = p.cluster("gb-west").orElseThrow();
        // by hand from the file: west-nvl-1 5 × 4, west-nvl-2 2 × 4, and 2 CPU nodes in no clique
        assertThat(west.nodePools())
                .extracting(
                        NodePool::name,
                        NodePool::count,
                        NodePool::gpus,
                        pool -> pool.labels().get("nvidia.com/gpu.clique"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("nvl1", 5, 4, "west-nvl-1"),
                        org.assertj.core.groups.Tuple.tuple("nvl2", 2, 4, "west-nvl-2"),
                        org.assertj.core.groups.Tuple.tuple("cpu", 2, 0, null));
        assertThat(p.cluster("gb-east").orElseThrow().nodePools())
                .extracting(NodePool::count)
                .containsExactly(3, 3);
        assertThat(FleetProfile.bundled("nope")).isEmpty();
        assertThat(FleetProfile.bundled("../etc")).isEmpty();
    }

    @Test
    void defaultProfileHasTheHandCountedNodesAndFreeGpus() {
        FleetProfile fleet = FleetProfile.defaultProfile();
        assertThat(fleet.clusters())
                .extracting(ClusterProfile::name)
                .containsExactly("gpu-east", "gpu-west", "gpu-edge");

        ClusterProfile east = fleet.cluster("gpu-east").orElseThrow();
        assertThat(east.nodes()).hasSize(4);
        assertThat(east.freeGpus()).containsExactly(8, 8, 6, 0);
        assertThat(east.nodePools().get(0).gpuProduct()).contains("NVIDIA-H100-80GB-HBM3");
        assertThat(east.nodePools().get(0).gpus()).isEqualTo(8);
        assertThat(east.nodes().get(0).name()).isEqualTo("gpu-east-h100-0");
        assertThat(east.labels()).containsEntry("region", "us-east");

        ClusterProfile west = fleet.cluster("gpu-west").orElseThrow();
        assertThat(west.nodes()).hasSize(8);
        assertThat(west.freeGpus()).containsExactly(8, 8, 8, 8, 4, 4, 2, 0);
        assertThat(west.nodePools().get(0).gpuProduct()).contains("NVIDIA-A100-SXM4-80GB");

        ClusterProfile edge = fleet.cluster("gpu-edge").orElseThrow();
        assertThat(edge.nodes()).hasSize(2);
        assertThat(edge.freeGpus()).containsExactly(4, 3);
        assertThat(edge.nodePools().get(0).gpuProduct()).contains("NVIDIA-L40S");
        assertThat(edge.nodePools().get(0).gpus()).isEqualTo(4);
    }

    @Test
    void optionalFieldsDefaultAndTaintsAreRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("fleet.yaml");
        Files.writeString(file, """
                clusters:
                  - name: lab
                    nodePools:
                      - name: cpu
                        count: 2
                        cpu: 16
                        memory: 64Gi
                      - name: t4
                        count: 1
                        gpuProduct: Tesla-T4
                        gpus: 1
                        cpu: "8"
                        memory: 32Gi
                        taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
                """);
        ClusterProfile lab = FleetProfile.read(file).clusters().get(0);
        assertThat(lab.labels()).isEmpty();
        NodePool cpu = lab.nodePools().get(0);
        assertThat(cpu.gpus()).isZero();
        assertThat(cpu.gpuProduct()).isEmpty();
        assertThat(cpu.pods()).isEqualTo(110);
        assertThat(cpu.usedGpus()).containsExactly(0, 0);
        assertThat(cpu.cpu()).isEqualTo("16");
        assertThat(lab.nodePools().get(1).taints())
                .containsExactly(new Taint("nvidia.com/gpu", "present", "NoSchedule"));
        assertThat(lab.nodes()).extracting(SimulatedNode::name).containsExactly("lab-cpu-0", "lab-cpu-1", "lab-t4-0");
    }

    @Test
    void badInputNamesTheClusterAndFieldOfEveryProblem() {
        FleetProfile.Parsed parsed = parse("""
                clusters:
                  - name: gpu-east
                    nodePools:
                      - name: h100
                        count: 4
                        gpus: 8
                        cpu: "192"
                        memory: lots
                        usedGpus: [0, 9, 0]
                        taint: []
                  - name: gpu-west
                    labels: {region: us-west}
                    nodePools: []
                  - labels: {}
                    nodePools: [{name: a, count: 1, cpu: "1", memory: 1Gi}]
                """);
        assertThat(parsed.profile()).isEmpty();
        assertThat(parsed.problems())
                .extracting(p -> p.cluster().orElse("-") + " " + p.field())
                .containsExactlyInAnyOrder(
                        "gpu-east nodePools[0].taint",
                        "gpu-east nodePools[0].gpuProduct",
                        "gpu-east nodePools[0].memory",
                        "gpu-east nodePools[0].usedGpus",
                        "gpu-east nodePools[0].usedGpus[1]",
                        "gpu-west nodePools",
                        "- clusters[2].name");
        assertThat(parsed.problems().get(0).toString()).startsWith("test.yaml: cluster gpu-east, field nodePools[0]");
    }

    @Test
    void readThrowsListingEveryProblem() {
        String yaml = "clusters:\n  - name: Bad_Name\n    nodePools: [{name: p, count: 0, cpu: \"1\", memory: 1Gi}]\n";
        assertThatThrownBy(() -> FleetProfile.read(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(InvalidFleetProfileException.class)
                .hasMessageContaining("clusters[0].name")
                .hasMessageContaining("nodePools[0].count: must be an integer of at least 1, was 0")
                .satisfies(e -> assertThat(((InvalidFleetProfileException) e).problems())
                        .hasSize(2));
    }

    @Test
    void duplicateClusterAndEmptyDocumentAreReported() {
        assertThat(parse("").problems()).extracting(ProfileProblem::field).containsExactly("clusters");
        assertThat(parse("clusters: [{name: a, nodePools: [{name: p, count: 1, cpu: '1', memory: 1Gi}]},"
                                + " {name: a, nodePools: [{name: p, count: 1, cpu: '1', memory: 1Gi}]}]")
                        .problems())
                .extracting(p -> p.cluster().orElseThrow() + " " + p.field() + ": " + p.message())
                .containsExactly("a name: duplicates another cluster's name");
    }

    @Test
    void recordsAreImmutable() {
        ClusterProfile east = FleetProfile.defaultProfile().clusters().get(0);
        assertThat(east.labels()).isEqualTo(Map.of("region", "us-east"));
        assertThatThrownBy(() -> east.nodePools().add(east.nodePools().get(0)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> List.copyOf(east.nodes()).add(null)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void readsAClustersAdmissionDenialsWithTheirDefaults() {
        FleetProfile fleet = parse("""
                clusters:
                  - name: gpu-edge
                    nodePools: [{name: l40s, count: 1, cpu: "64", memory: 512Gi}]
                    admission:
                      - kind: PyTorchJob
                        message: PyTorchJobs are not allowed on the edge
                      - kind: JobSet
                        namespace: ml
                        message: no JobSets in ml
                        webhook: jobsets.policy.example.com
                        operations: [UPDATE]
                  - name: gpu-east
                    nodePools: [{name: h100, count: 1, cpu: "64", memory: 512Gi}]
                """).orThrow();

        assertThat(fleet.cluster("gpu-edge").orElseThrow().admission())
                .containsExactly(
                        new AdmissionRule(
                                "PyTorchJob",
                                "*",
                                "PyTorchJobs are not allowed on the edge",
                                "validate.policy.cartograph.dev",
                                Set.of(AdmissionRule.Operation.CREATE, AdmissionRule.Operation.UPDATE)),
                        new AdmissionRule(
                                "JobSet",
                                "ml",
                                "no JobSets in ml",
                                "jobsets.policy.example.com",
                                Set.of(AdmissionRule.Operation.UPDATE)));
        assertThat(fleet.cluster("gpu-east").orElseThrow().admission()).isEmpty();
    }

    @Test
    void badAdmissionDenialsNameTheClusterAndField() {
        FleetProfile.Parsed parsed = parse("""
                clusters:
                  - name: gpu-edge
                    nodePools: [{name: l40s, count: 1, cpu: "64", memory: 512Gi}]
                    admission:
                      - kind: pytorchjob
                        namespace: Not_A_Namespace
                        operations: [DELETE]
                        reason: x
                """);

        assertThat(parsed.profile()).isEmpty();
        assertThat(parsed.problems())
                .extracting(p -> p.cluster().orElse("-") + " " + p.field())
                .containsExactlyInAnyOrder(
                        "gpu-edge admission[0].reason",
                        "gpu-edge admission[0].kind",
                        "gpu-edge admission[0].namespace",
                        "gpu-edge admission[0].message",
                        "gpu-edge admission[0].operations");
    }

    @Test
    void withAdmissionRefusesOnlyOnTheNamedCluster() {
        FleetProfile fleet = FleetProfile.defaultProfile()
                .withAdmission("gpu-edge", AdmissionRule.denying("PyTorchJob", "not on the edge"));

        assertThat(fleet.cluster("gpu-edge").orElseThrow().admission())
                .extracting(AdmissionRule::kind)
                .containsExactly("PyTorchJob");
        assertThat(fleet.cluster("gpu-east").orElseThrow().admission()).isEmpty();
        assertThat(fleet.cluster("gpu-edge").orElseThrow().nodes()).hasSize(2);
        assertThatThrownBy(() -> fleet.withAdmission("nowhere", AdmissionRule.denying("Job", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no cluster nowhere");
    }

    private static FleetProfile.Parsed parse(String yaml) {
        return FleetProfile.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "test.yaml");
    }
}
