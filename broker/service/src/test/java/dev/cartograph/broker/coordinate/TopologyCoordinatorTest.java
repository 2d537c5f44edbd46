package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Gangs that require one NVLink clique: placed in one, pinned to it on the member, or waiting with the sizes. */
@Timeout(60)
class TopologyCoordinatorTest extends CoordinatorHarness {
    static final String CLIQUE = "nvidia.com/gpu.clique";

    /** 8-GPU H100 nodes {@code NAME-nI}, in the cliques given per node, with the GPUs used given per node. */
    ClusterSummary cliques(String name, String[] clique, int[] used) {
        return cliques(name, Map.of(), clique, used);
    }

    ClusterSummary cliques(String name, Map<String, String> labels, String[] clique, int[] used) {
        List<NodeState> nodes = new ArrayList<>();
        for (int i = 0; i < clique.length; i++) {
            nodes.add(new NodeState(
                    name + "-n" + i,
                    Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", CLIQUE, clique[i]),
                    List.of(),
                    true,
                    true,
                    res("nvidia.com/gpu", "8", "cpu", "64", "memory", "512Gi", "pods", "110"),
                    res("nvidia.com/gpu", "" + used[i])));
        }
        return new ClusterSummary(name, labels, "v", "inc", 1, now, nodes, List.of());
    }

    /** A federated indexed Job of {@code pods} pods × 8 GPUs that requires one clique; uid {@code uid-NAME}. */
    static JsonNode training(String name, int pods) {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: ml
                  uid: uid-%s
                  creationTimestamp: "2026-12-02T12:00:00Z"
                  labels: {cartograph.dev/federate: "true"}
                  annotations: {cartograph.dev/required-topology: nvidia.com/gpu.clique}
                spec:
                  parallelism: %d
                  completions: %d
                  completionMode: Indexed
                  template:
                    spec:
                      nodeSelector: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "8"}}}]
                """.formatted(name, name, pods, pods));
    }

    @Test
    void aGangLandsInTheOneCliqueThatHoldsItIsPinnedThereAndTheNextWaitsWithTheCliquesSizes() {
        // east: clique a = n0..n3 with 8, 8, 8, 4 free (28); clique b = n4..n7 all free (32)
        // west: cliques c and d of two free nodes each (16 + 16): 32 free, as many as the gang needs, but split
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cliques(
                        "east", new String[] {"a", "a", "a", "a", "b", "b", "b", "b"}, new int[] {0, 0, 0, 4, 0, 0, 0, 0
                        })),
                new Input.Cluster(cliques("west", new String[] {"c", "c", "d", "d"}, new int[] {0, 0, 0, 0})));
        step(new Input.HubChanged(training("t1", 4)));

        PlacementRecord t1 = coordinator.view().placements().get("uid-t1");
        assertThat(t1.state()).isEqualTo(State.PLACED);
        assertThat(t1.cluster()).contains("east");
        assertThat(t1.reserved().keySet()).containsExactlyInAnyOrder("east-n4", "east-n5", "east-n6", "east-n7");
        assertThat(t1.pin()).isEqualTo(new PlacementRecord.Pin(Map.of(CLIQUE, "b"), Set.of()));
        assertThat(records.get(records.size() - 1).pin()).isEqualTo(t1.pin()); // durable with the decision
        Command.Apply apply = (Command.Apply) sent.stream()
                .filter(c -> c instanceof Command.Apply a && a.placementId().equals("uid-t1"))
                .findFirst()
                .orElseThrow();
        JsonNode selector =
                apply.manifest().path("spec").path("template").path("spec").path("nodeSelector");
        assertThat(selector.path(CLIQUE).asText()).isEqualTo("b"); // the member's scheduler keeps the pods there
        assertThat(selector.path("nvidia.com/gpu.product").asText()).isEqualTo("NVIDIA-H100-80GB-HBM3");
        assertThat(hubWrites)
                .anyMatch(w -> w.startsWith("event t1 Placed:") && w.contains("in nvidia.com/gpu.clique=b"));

        // a second gang of 4 × 8: east has 28 free in all (room for 3 such pods), west 32 but split 16 + 16
        step(new Input.HubChanged(training("t2", 4)));
        PlacementRecord t2 = coordinator.view().placements().get("uid-t2");
        assertThat(t2.state()).isEqualTo(State.QUEUED);
        assertThat(t2.pin().none()).isTrue();
        assertThat(t2.reason())
                .isEqualTo(
                        "waits for capacity: east: needs 4 pods × 8 GPUs NVIDIA-H100-80GB-HBM3 (job); largest free block 8"
                                + " on 8 ready nodes, room for 3 such pods (28 GPUs free in all); west: needs 4 pods with 32"
                                + " GPUs in one nvidia.com/gpu.clique domain: the largest free is nvidia.com/gpu.clique=c with"
                                + " 16 GPUs free on 2 nodes (largest block 8); 2 domains: c 16 GPUs free on 2 nodes, d 16 GPUs"
                                + " free on 2 nodes");
    }

    @Test
    void onAMemberWhoseSchedulerPlacesByTopologyTheGangIsLeftToItWithItsAnnotations() {
        // kueue-east runs Kueue TAS, kai-west KAI with Topology "gb200": each has one clique of 4 free nodes
        step(
                new Input.CaughtUp(),
                new Input.Cluster(cliques(
                        "kueue-east",
                        Map.of("cartograph.dev/topology-scheduler", "kueue"),
                        new String[] {"a", "a", "a", "a"},
                        new int[] {0, 0, 0, 0})));
        step(new Input.HubChanged(training("t1", 4)));
        PlacementRecord t1 = coordinator.view().placements().get("uid-t1");
        assertThat(t1.cluster()).contains("kueue-east");
        assertThat(t1.pin())
                .isEqualTo(new PlacementRecord.Pin(
                        Map.of(), Set.of(), Map.of("kueue.x-k8s.io/podset-required-topology", CLIQUE), Map.of()));
        JsonNode template = applied("uid-t1").path("spec").path("template");
        assertThat(template.path("metadata")
                        .path("annotations")
                        .path("kueue.x-k8s.io/podset-required-topology")
                        .asText())
                .isEqualTo(CLIQUE);
        assertThat(template.path("spec").path("nodeSelector").has(CLIQUE)).isFalse(); // Kueue picks the clique

        step(new Input.Cluster(cliques(
                "kai-west",
                Map.of("cartograph.dev/topology-scheduler", "kai", "cartograph.dev/kai-topology", "gb200"),
                new String[] {"b", "b", "b", "b"},
                new int[] {0, 0, 0, 0})));
        step(new Input.HubChanged(training("t2", 4))); // kueue-east is full now
        assertThat(coordinator.view().placements().get("uid-t2").cluster()).contains("kai-west");
        JsonNode t2 = applied("uid-t2");
        assertThat(t2.path("metadata")
                        .path("annotations")
                        .path("kai.scheduler/topology")
                        .asText())
                .isEqualTo("gb200");
        assertThat(t2.path("metadata")
                        .path("annotations")
                        .path("kai.scheduler/topology-required-placement")
                        .asText())
                .isEqualTo(CLIQUE);
        assertThat(t2.path("spec")
                        .path("template")
                        .path("spec")
                        .path("nodeSelector")
                        .has(CLIQUE))
                .isFalse();
    }

    private JsonNode applied(String uid) {
        return sent.stream()
                .filter(c -> c instanceof Command.Apply a && a.placementId().equals(uid))
                .map(c -> ((Command.Apply) c).manifest())
                .reduce((first, second) -> second)
                .orElseThrow();
    }
}
