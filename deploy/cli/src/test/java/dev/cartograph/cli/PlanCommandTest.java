package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** carto plan on the hand-made example fleet (deploy/examples/fleet.json: free GPUs counted in its README). */
@Timeout(60)
class PlanCommandTest {
    static final String FLEET = "../../deploy/examples/fleet.json";

    @TempDir
    Path dir;

    Path jobset(String product, int parallelism, int gpus) throws Exception {
        Path p = dir.resolve("w.yaml");
        Files.writeString(p, """
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: t, namespace: ml}
                spec:
                  replicatedJobs:
                    - name: w
                      template: {spec: {parallelism: %d, template: {spec: {nodeSelector: {nvidia.com/gpu.product: %s},
                        containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: %d}}}]}}}}
                """.formatted(parallelism, product, gpus));
        return p;
    }

    @Test
    void aGangPinnedToH100LandsOnTheWholeFreeH100Nodes() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                "plan", "-f", jobset("NVIDIA-H100-80GB-HBM3", 2, 8).toString(), "--fleet", FLEET, "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode d = Documents.json().readTree(run.out());
        assertThat(d.path("decision").asText()).isEqualTo("Placed");
        assertThat(d.path("cluster").asText()).isEqualTo("gpu-east");
        assertThat(d.path("assignments"))
                .extracting(a -> a.path("node").asText())
                .containsExactly("east-0", "east-1");
    }

    @Test
    void theDecisionPrintsAsYamlToo() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                "plan", "-f", jobset("NVIDIA-H100-80GB-HBM3", 2, 8).toString(), "--fleet", FLEET, "-o", "yaml");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode d = Documents.yaml().readTree(run.out());
        assertThat(d.path("decision").asText()).isEqualTo("Placed");
        assertThat(d.path("cluster").asText()).isEqualTo("gpu-east");
        assertThat(d.path("assignments"))
                .extracting(a -> a.path("node").asText())
                .containsExactly("east-0", "east-1");
    }

    @Test
    void threeWholeH100NodesFitNowhereAndSayWhy() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                "plan", "-f", jobset("NVIDIA-H100-80GB-HBM3", 3, 8).toString(), "--fleet", FLEET);
        assertThat(run.out())
                .startsWith("Unschedulable")
                .contains(
                        "gpu-east  no    needs 3 pods × 8 GPUs NVIDIA-H100-80GB-HBM3 (replicatedjob/w); largest free block 8 on 4 ready nodes, room for 2 such pods (22 GPUs free in all)");
    }

    @Test
    void anA100GangGoesWestAndBinPacksOntoPartlyUsedNodes() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                "plan", "-f", jobset("NVIDIA-A100-SXM4-80GB", 2, 4).toString(), "--fleet", FLEET, "-o", "json");
        JsonNode d = Documents.json().readTree(run.out());
        assertThat(d.path("cluster").asText()).isEqualTo("gpu-west");
        // west-4 and west-5 have exactly 4 free: filling them keeps the four whole nodes free
        assertThat(d.path("assignments"))
                .extracting(a -> a.path("node").asText())
                .containsExactlyInAnyOrder("west-4", "west-5");
    }
}
