package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.mock.fleet.FleetProfile;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topology-aware gangs on the local fleet (issue 18), bundled profile {@code topology}: GB200 nodes of 4 GPUs in
 * NVLink cliques. Free by hand: gb-east east-nvl-1 3 nodes (12 GPUs), east-nvl-2 3 nodes (12) — 24 in all; gb-west
 * west-nvl-1 5 nodes (20), west-nvl-2 2 nodes (8) — 28, and 2 CPU nodes. A gang of 5 pods × 4 GPUs requiring one clique
 * fits only west-nvl-1 (gb-east holds 24 but no clique more than 12); its pods run on those five nodes only. A second
 * gang of 4 × 4 then fits gb-east's 24 in all but no clique of either cluster, and waits saying the cliques' sizes.
 */
@Timeout(300)
class TopologyIT {
    static final String CLIQUE = "nvidia.com/gpu.clique";

    @TempDir
    java.nio.file.Path dir;

    /** A PyTorchJob of a master and {@code workers} workers, 4 GB200 GPUs each, that requires one NVLink clique. */
    static GenericKubernetesResource job(LocalFleet fleet, String name, int workers) {
        String pod = """
                      replicas: %d
                      template:
                        spec:
                          nodeSelector: {nvidia.com/gpu.product: NVIDIA-GB200}
                          containers:
                            - name: pytorch
                              image: ghcr.io/example/train:1.0
                              resources: {limits: {nvidia.com/gpu: "4"}}
                """;
        String yaml = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: %s
                  namespace: ml
                  annotations: {cartograph.dev/required-topology: nvidia.com/gpu.clique}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                %s    Worker:
                %s""".formatted(name, pod.formatted(1), pod.formatted(workers));
        return fleet.hub().client().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    }

    @Test
    void aGangThatRequiresOneCliqueRunsOnlyOnTheOneCliqueThatHoldsItAndTheNextWaitsWithTheCliquesSizes()
            throws Exception {
        FleetProfile profile = FleetProfile.bundled("topology").orElseThrow();
        try (LocalFleet fleet = LocalFleet.start(FleetOptions.defaults(dir)
                .withProfile(profile)
                .withPorts(0, 0, 0)
                .withBatchRunTime(Duration.ofHours(1)))) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 2,
                    () -> "broker active with 2 clusters");
            KubernetesClient hub = fleet.hub().client();

            hub.resource(job(fleet, "train-a", 4)).create();
            Eventually.until(
                    Duration.ofSeconds(90),
                    () -> "Running"
                            .equals(FairShareIT.label(
                                    hub.resource(job(fleet, "train-a", 4)).get(), "cartograph.dev/phase")),
                    () -> "train-a runs: " + FairShareIT.record(fleet, "train-a"));
            GenericKubernetesResource a = hub.resource(job(fleet, "train-a", 4)).get();
            assertThat(FairShareIT.label(a, "cartograph.dev/cluster")).isEqualTo("gb-west");
            // the copy's pod templates are pinned to the clique, and its five pods run on west-nvl-1's five nodes
            GenericKubernetesResource copy =
                    FairShareIT.copy(fleet, "gb-west", "ml", "train-a").orElseThrow();
            for (String role : List.of("Master", "Worker")) {
                Map<String, Object> selector = nodeSelector(copy, role);
                assertThat(selector)
                        .containsEntry(CLIQUE, "west-nvl-1")
                        .containsEntry("nvidia.com/gpu.product", "NVIDIA-GB200");
            }
            List<String> nodes = fleet.member("gb-west").client().pods().inNamespace("ml").list().getItems().stream()
                    .map(Pod::getSpec)
                    .map(s -> s.getNodeName())
                    .sorted()
                    .toList();
            System.out.println("train-a's pods run on " + nodes);
            assertThat(nodes).hasSize(5).allMatch(n -> n.startsWith("gb-west-nvl1-"));
            assertThat(nodes).doesNotHaveDuplicates();
            assertThat(FairShareIT.copy(fleet, "gb-east", "ml", "train-a")).isEmpty();

            // 4 × 4 = 16 GPUs: gb-east has 24 free but 12 per clique; gb-west has 8 left, in west-nvl-2
            hub.resource(job(fleet, "train-b", 3)).create();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> FairShareIT.reason(
                                    hub.resource(job(fleet, "train-b", 3)).get())
                            .contains("in one nvidia.com/gpu.clique domain"),
                    () -> "train-b waits, naming the cliques: "
                            + FairShareIT.reason(
                                    hub.resource(job(fleet, "train-b", 3)).get()));
            String reason =
                    FairShareIT.reason(hub.resource(job(fleet, "train-b", 3)).get());
            System.out.println("train-b waits: " + reason);
            assertThat(reason)
                    .startsWith("waits for capacity: ")
                    .contains("gb-east: needs 4 pods with 16 GPUs in one nvidia.com/gpu.clique domain: the largest free"
                            + " is nvidia.com/gpu.clique=east-nvl-1 with 12 GPUs free on 3 nodes (largest block 4); 2"
                            + " domains: east-nvl-1 12 GPUs free on 3 nodes, east-nvl-2 12 GPUs free on 3 nodes");
            assertThat(FairShareIT.copy(fleet, "gb-east", "ml", "train-b")).isEmpty();
            assertThat(FairShareIT.copy(fleet, "gb-west", "ml", "train-b")).isEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> nodeSelector(GenericKubernetesResource copy, String role) {
        Map<String, Object> specs = (Map<String, Object>)
                ((Map<String, Object>) copy.getAdditionalProperties().get("spec")).get("pytorchReplicaSpecs");
        Map<String, Object> template = (Map<String, Object>) ((Map<String, Object>) specs.get(role)).get("template");
        return (Map<String, Object>)
                ((Map<String, Object>) template.get("spec")).getOrDefault("nodeSelector", Map.of());
    }
}
