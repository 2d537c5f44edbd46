package dev.cartograph.mock.seed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.mock.fleet.ClusterProfile;
import dev.cartograph.mock.fleet.FleetProfile;
import dev.cartograph.mock.server.MockApiServer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FleetSeederIT {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
    private MockApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = MockApiServer.start();
        client = server.client();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void seedsReadyGpuNodesWithTheProfileResources() {
        ClusterProfile east = FleetProfile.defaultProfile().cluster("gpu-east").orElseThrow();
        new FleetSeeder(CLOCK).seedCluster(client, east);

        List<Node> nodes = client.nodes().list().getItems();
        assertThat(nodes)
                .extracting(n -> n.getMetadata().getName())
                .containsExactlyInAnyOrder("gpu-east-h100-0", "gpu-east-h100-1", "gpu-east-h100-2", "gpu-east-h100-3");
        Node node = client.nodes().withName("gpu-east-h100-2").get();
        assertThat(node.getMetadata().getLabels())
                .isEqualTo(Map.of(
                        "kubernetes.io/hostname", "gpu-east-h100-2",
                        "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3",
                        "nvidia.com/gpu.count", "8"));
        assertThat(node.getStatus().getAllocatable().get("nvidia.com/gpu").toString())
                .isEqualTo("8");
        assertThat(node.getStatus().getAllocatable().get("cpu").toString()).isEqualTo("192");
        assertThat(node.getStatus().getAllocatable().get("memory").toString()).isEqualTo("2Ti");
        assertThat(node.getStatus().getAllocatable().get("pods").toString()).isEqualTo("110");
        assertThat(node.getStatus().getCapacity()).isEqualTo(node.getStatus().getAllocatable());
        NodeCondition ready = node.getStatus().getConditions().get(0);
        assertThat(ready.getType()).isEqualTo("Ready");
        assertThat(ready.getStatus()).isEqualTo("True");
        assertThat(ready.getLastHeartbeatTime()).isEqualTo("2026-01-02T03:04:05Z");
    }

    @Test
    void seedsOneRunningPodPerPartlyUsedNode() {
        ClusterProfile east = FleetProfile.defaultProfile().cluster("gpu-east").orElseThrow();
        FleetSeeder.seed(client, east);

        List<Pod> pods = client.pods().inNamespace("preexisting").list().getItems();
        // used GPUs 0,0,2,8: pods only on nodes 2 and 3
        assertThat(pods)
                .extracting(p -> p.getSpec().getNodeName())
                .containsExactlyInAnyOrder("gpu-east-h100-2", "gpu-east-h100-3");
        Pod onTwo = pods.stream()
                .filter(p -> p.getSpec().getNodeName().equals("gpu-east-h100-2"))
                .findFirst()
                .orElseThrow();
        assertThat(onTwo.getStatus().getPhase()).isEqualTo("Running");
        var requests = onTwo.getSpec().getContainers().get(0).getResources().getRequests();
        assertThat(requests.get("nvidia.com/gpu").toString()).isEqualTo("2");
        assertThat(requests).containsKeys("cpu", "memory");
        assertThat(client.namespaces().withName("preexisting").get()).isNotNull();
    }

    @Test
    void seedingTwiceDoesNotDuplicate() {
        ClusterProfile west = FleetProfile.defaultProfile().cluster("gpu-west").orElseThrow();
        FleetSeeder.seed(client, west);
        FleetSeeder.Seeded again = FleetSeeder.seed(client, west);

        assertThat(again.nodes()).hasSize(8);
        assertThat(client.nodes().list().getItems()).hasSize(8);
        // used GPUs 0,0,0,0,4,4,6,8: four pre-existing pods
        assertThat(client.pods().inNamespace("preexisting").list().getItems()).hasSize(4);
        assertThat(client.namespaces().list().getItems()).hasSize(1);
    }

    @Test
    void taintsBecomeNodeTaintsAndPodTolerations() {
        ClusterProfile tainted = FleetProfile.read(
                        new java.io.ByteArrayInputStream("""
                clusters:
                  - name: lab
                    nodePools:
                      - {name: t4, count: 1, gpuProduct: Tesla-T4, gpus: 1, cpu: "8", memory: 32Gi, usedGpus: [1],
                         taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]}
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .clusters()
                .get(0);
        FleetSeeder.seed(client, tainted);
        var taint =
                client.nodes().withName("lab-t4-0").get().getSpec().getTaints().get(0);
        assertThat(List.of(taint.getKey(), taint.getValue(), taint.getEffect()))
                .containsExactly("nvidia.com/gpu", "present", "NoSchedule");
        assertThat(client.pods()
                        .inNamespace("preexisting")
                        .withName("preexisting-lab-t4-0")
                        .get()
                        .getSpec()
                        .getTolerations())
                .extracting(t -> t.getKey())
                .containsExactly("nvidia.com/gpu");
    }
}
