package dev.cartograph.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class WireTest {
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");

    static ResourceList res(String... pairs) {
        TreeMap<String, java.math.BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], Quantity.parse(pairs[i + 1]).orElseThrow());
        }
        return new ResourceList(m);
    }

    static NodeState h100(String name, int gpusUsed, boolean ready, boolean schedulable, String zone) {
        return new NodeState(
                name,
                Map.of(
                        "kubernetes.io/hostname",
                        name,
                        NodeState.GPU_PRODUCT,
                        "NVIDIA-H100-80GB-HBM3",
                        "nvidia.com/gpu.count",
                        "8",
                        "nvidia.com/gpu.memory",
                        "81559",
                        "topology.kubernetes.io/zone",
                        zone,
                        "node.kubernetes.io/instance-type",
                        "p5.48xlarge"),
                List.of(new Taint("nvidia.com/gpu", "present", "NoSchedule")),
                ready,
                schedulable,
                res(
                        "cpu",
                        "192",
                        "memory",
                        "2048Gi",
                        "nvidia.com/gpu",
                        "8",
                        "pods",
                        "110",
                        "ephemeral-storage",
                        "3500Gi"),
                gpusUsed == 0
                        ? ResourceList.EMPTY
                        : res(
                                "cpu",
                                String.valueOf(gpusUsed * 20) + "500m",
                                "memory",
                                gpusUsed * 200 + "Gi",
                                "nvidia.com/gpu",
                                String.valueOf(gpusUsed),
                                "pods",
                                String.valueOf(gpusUsed + 3)));
    }

    @Test
    void unknownFieldsAreIgnoredAndBadRecordsSayWhy() {
        String future =
                "{\"schema\":1,\"type\":\"result\",\"cluster\":\"a\",\"placementId\":\"p\",\"epoch\":1,\"command\":\"apply\","
                        + "\"outcome\":\"APPLIED\",\"at\":\"2026-12-02T12:00:00Z\",\"addedLater\":{\"x\":1}}";
        assertThat(Wire.decodeResult(future.getBytes(StandardCharsets.UTF_8))).isInstanceOf(Decoded.Ok.class);
        assertThat(Wire.decodeResult("{\"schema\":2,\"type\":\"result\"}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("schema 2 is not supported (this build reads schema 1 to 1)"));
        assertThat(Wire.decodeCommand(
                        "{\"schema\":1,\"type\":\"apply\",\"placementId\":\"p\",\"epoch\":1,\"issued\":\"2026-12-02T12:00:00Z\"}"
                                .getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("field 'manifest' is missing or not an object"));
    }

    @Test
    void placementsRoundTripAndBadStatesAreNamed() {
        PlacementRecord p = new PlacementRecord(
                "uid-1",
                new PlacementRecord.Target("ml", "kubeflow.org/v1", "PyTorchJob", "ft"),
                Optional.of("gpu-east"),
                2,
                PlacementRecord.State.PLACED,
                "",
                Map.of("n1", res("nvidia.com/gpu", "8"), "n2", res("nvidia.com/gpu", "4", "cpu", "2.5")),
                100,
                T,
                T.plusSeconds(1));
        assertThat(Wire.decodePlacement(Wire.encode(p))).isEqualTo(new Decoded.Ok<>(p));
        PlacementRecord queued = p.with(Optional.empty(), 0, PlacementRecord.State.QUEUED, "fits nowhere", Map.of(), T);
        assertThat(Wire.decodePlacement(Wire.encode(queued))).isEqualTo(new Decoded.Ok<>(queued));
        PlacementRecord refused = queued.with(PlacementRecord.State.SUSPENDED, "", T)
                .withRefusals(Map.of("gpu-east", "admission webhook \"quota\" denied the request: over quota"));
        assertThat(Wire.decodePlacement(Wire.encode(refused))).isEqualTo(new Decoded.Ok<>(refused));
        assertThat(new String(Wire.encode(queued), StandardCharsets.UTF_8)).doesNotContain("refusals", "pin");
        PlacementRecord pinned =
                p.withPin(new PlacementRecord.Pin(Map.of("nvidia.com/gpu.clique", "nvl-2"), Set.of("Worker")));
        assertThat(new String(Wire.encode(pinned), StandardCharsets.UTF_8))
                .contains(
                        "\"pin\":{\"nodeSelector\":{\"nvidia.com/gpu.clique\":\"nvl-2\"},\"components\":[\"Worker\"]}");
        assertThat(Wire.decodePlacement(Wire.encode(pinned))).isEqualTo(new Decoded.Ok<>(pinned));
        byte[] badPin = new String(Wire.encode(pinned), StandardCharsets.UTF_8)
                .replace("\"nodeSelector\":{", "\"nodeSelector\":[{")
                .replace("\"nvl-2\"}", "\"nvl-2\"}]")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(((Decoded.Failed<PlacementRecord>) Wire.decodePlacement(badPin)).reason())
                .contains("field 'pin.nodeSelector'");
        PlacementRecord delegated = p.withPin(new PlacementRecord.Pin(
                Map.of(),
                Set.of(),
                Map.of("kueue.x-k8s.io/podset-required-topology", "nvidia.com/gpu.clique"),
                Map.of("kai.scheduler/topology", "cluster-topology")));
        assertThat(Wire.decodePlacement(Wire.encode(delegated))).isEqualTo(new Decoded.Ok<>(delegated));
        byte[] bad = new String(Wire.encode(p), StandardCharsets.UTF_8)
                .replace("PLACED", "LOST")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(Wire.decodePlacement(bad)).isInstanceOf(Decoded.Failed.class);
        assertThat(((Decoded.Failed<PlacementRecord>) Wire.decodePlacement(bad)).reason())
                .contains("field 'state'");
    }

    @Test
    void workloadsCommandsAndResultsRoundTrip() {
        WorkloadSummary w = new WorkloadSummary(
                new WorkloadKey("gpu-east", "ml", "kubeflow.org", "PyTorchJob", "ft"),
                "kubeflow.org/v1",
                "inc",
                3,
                T,
                Optional.of("p-9"),
                "Running",
                List.of("Running", "Initializing"),
                4,
                res("nvidia.com/gpu", "32"),
                4,
                List.of(new WorkloadSummary.Role(
                        "worker", "worker", 3, 2, Optional.of(4L), res("nvidia.com/gpu", "8", "cpu", "32"))),
                JsonNodeFactory.instance
                        .objectNode()
                        .set(
                                "conditions",
                                JsonNodeFactory.instance
                                        .arrayNode()
                                        .add(JsonNodeFactory.instance
                                                .objectNode()
                                                .put("type", "Running")
                                                .put("status", "True"))));
        assertThat(Wire.decodeWorkload(Wire.encode(w))).isEqualTo(new Decoded.Ok<>(w));
        assertThat(((Decoded.Ok<WorkloadSummary>) Wire.decodeWorkload(Wire.encode(w)))
                        .value()
                        .status()
                        .path("conditions")
                        .get(0)
                        .path("type")
                        .asText())
                .isEqualTo("Running");
        assertThat(WorkloadKey.parse(w.key().kafkaKey())).contains(w.key());

        Command.Apply apply = new Command.Apply(
                "p-9", 2, T, JsonNodeFactory.instance.objectNode().put("kind", "PyTorchJob"));
        assertThat(Wire.decodeCommand(Wire.encode(apply))).isEqualTo(new Decoded.Ok<>(apply));
        Command.Delete delete = new Command.Delete(
                "p-9", 3, T, new WorkloadKey("gpu-east", "team-a", "kubeflow.org", "PyTorchJob", "train"));
        assertThat(Wire.decodeCommand(Wire.encode(delete))).isEqualTo(new Decoded.Ok<>(delete));
        CommandResult r = new CommandResult(
                "gpu-east",
                "p-9",
                2,
                "apply",
                CommandResult.Outcome.REJECTED,
                "namespace kube-system is not allowed",
                T);
        assertThat(Wire.decodeResult(Wire.encode(r))).isEqualTo(new Decoded.Ok<>(r));
    }

    @Test
    void commandsCarryTheTermOfTheBrokerThatWroteThemAndOlderRecordsReadAsTermZero() {
        Command.Apply apply = new Command.Apply(
                        "p-9", 2, T, JsonNodeFactory.instance.objectNode().put("kind", "PyTorchJob"))
                .withTerm(7);
        String written = new String(Wire.encode(apply), StandardCharsets.UTF_8);
        assertThat(written).contains("\"issued\":\"2026-12-02T12:00:00Z\",\"term\":7");
        assertThat(Wire.decodeCommand(Wire.encode(apply))).isEqualTo(new Decoded.Ok<>(apply));
        assertThat(((Decoded.Ok<Command>) Wire.decodeCommand(Wire.encode(apply)))
                        .value()
                        .term())
                .isEqualTo(7);
        Command.Delete delete = new Command.Delete(
                "p-9", 3, T, new WorkloadKey("gpu-east", "team-a", "kubeflow.org", "PyTorchJob", "train"), 12);
        assertThat(Wire.decodeCommand(Wire.encode(delete))).isEqualTo(new Decoded.Ok<>(delete));

        // as a broker that predates the field wrote them: term 0
        String olderApply = "{\"schema\":1,\"type\":\"apply\",\"placementId\":\"p-9\",\"epoch\":2,"
                + "\"issued\":\"2026-12-02T12:00:00Z\",\"manifest\":{\"kind\":\"PyTorchJob\"}}";
        assertThat(Wire.decodeCommand(olderApply.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Ok<>(new Command.Apply(
                        "p-9", 2, T, JsonNodeFactory.instance.objectNode().put("kind", "PyTorchJob"), List.of(), 0)));
        String olderDelete = "{\"schema\":1,\"type\":\"delete\",\"placementId\":\"p-9\",\"epoch\":3,"
                + "\"issued\":\"2026-12-02T12:00:00Z\",\"copy\":\"gpu-east/team-a/kubeflow.org/PyTorchJob/train\"}";
        assertThat(Wire.decodeCommand(olderDelete.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Ok<>(delete.withTerm(0)));

        // a term that is not a whole number of 0 or more makes the command undecodable, named
        assertThat(Wire.decodeCommand(olderDelete.replace("}", ",\"term\":-1}").getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("field 'term' is negative: -1"));
        assertThat(Wire.decodeCommand(
                        olderDelete.replace("}", ",\"term\":\"3\"}").getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded.Failed<>("field 'term' is missing or not a whole number"));
        assertThatThrownBy(() -> delete.withTerm(-1)).hasMessage("term must be 0 or more, not -1");
    }

    @Test
    void fleetSnapshotIsTheExpandedForm() {
        ClusterState c =
                new ClusterState("gpu-east", Map.of("tier", "prod"), true, List.of(h100("n1", 4, true, true, "a")));
        byte[] bytes = Wire.encodeFleet(List.of(c));
        assertThat(new String(bytes, StandardCharsets.UTF_8))
                .startsWith("{\"clusters\":[{\"name\":\"gpu-east\"")
                .contains("\"allocatable\":{")
                .contains("\"taints\":[{\"key\":\"nvidia.com/gpu\"");
        assertThat(Wire.decodeFleet(bytes)).isEqualTo(new Decoded.Ok<>(List.of(c)));
    }

    @Test
    void topicNamesAreConfinedPerCluster() {
        Topics t = new Topics("cartograph");
        assertThat(t.commands("gpu-east")).isEqualTo("cartograph.commands.gpu-east");
        assertThat(t.of("gpu-east", Topics.AgentTopic.CLUSTER)).isEqualTo("cartograph.from.gpu-east.cluster");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.commands("a/b"))
                .hasMessageContaining("cannot name a topic");
    }
}
