package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The coordinator on its own: inputs in, records, commands and hub writes out (no Kafka, no API server). */
class CoordinatorTest {
    static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");

    final List<PlacementRecord> records = new ArrayList<>();
    final List<String> commands = new ArrayList<>();
    final List<String> hubWrites = new ArrayList<>();
    Instant now = T0;
    final Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    final PriorityClasses classes = new PriorityClasses() {
        @Override
        public Optional<Integer> value(String name) {
            return name.equals("high") ? Optional.of(100) : Optional.empty();
        }

        @Override
        public Optional<Integer> globalDefault() {
            return Optional.empty();
        }
    };
    final Coordinator coordinator = new Coordinator(new BrokerSettings("test", "t", Map.of(), Duration.ofSeconds(30), Duration.ofSeconds(60),
            "cartograph.dev/federate=true", Planner.Policy.BIN_PACK, false, "", "", Duration.ofSeconds(1)),
            Interpreter.of(Catalog.load().definitions()), new Outbox() {
                @Override
                public void placement(PlacementRecord record) {
                    records.add(record);
                }

                @Override
                public void forget(String uid) {
                    commands.add("forget " + uid);
                }

                @Override
                public void command(String cluster, Command command) {
                    commands.add((command instanceof Command.Apply ? "apply " : "delete ") + command.placementId() + "@" + cluster + "#"
                            + command.epoch());
                }
            }, new Hub() {
                @Override
                public void addFinalizer(JsonNode object) {
                }

                @Override
                public void removeFinalizer(JsonNode object) {
                    hubWrites.add("unfinalize " + object.path("metadata").path("name").asText());
                }

                @Override
                public void mark(JsonNode object, Map<String, String> labels, Map<String, String> annotations) {
                    hubWrites.add("mark " + object.path("metadata").path("name").asText() + " " + new TreeMap<>(labels));
                }

                @Override
                public void status(JsonNode object, JsonNode status) {
                }

                @Override
                public void event(JsonNode object, String type, String reason, String message) {
                    hubWrites.add("event " + object.path("metadata").path("name").asText() + " " + reason + ": " + message);
                }
            }, clock, classes);

    static ClusterSummary cluster(String name, long sequence, Instant heartbeat, int... usedGpus) {
        List<NodeState> nodes = new ArrayList<>();
        for (int i = 0; i < usedGpus.length; i++) {
            nodes.add(new NodeState(name + "-n" + i, Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"), List.of(), true, true,
                    res("nvidia.com/gpu", "8", "cpu", "64", "memory", "512Gi", "pods", "110"), res("nvidia.com/gpu", "" + usedGpus[i])));
        }
        return new ClusterSummary(name, Map.of(), "v", "inc", sequence, heartbeat, nodes, List.of());
    }

    static ResourceList res(String... kv) {
        TreeMap<String, java.math.BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]).orElseThrow());
        }
        return new ResourceList(m);
    }

    /** A federated Job on the hub asking for {@code gpus} GPUs in one pod. */
    static JsonNode job(String name, String uid, Instant created, int gpus, String annotations, String priorityClass) throws Exception {
        String yaml = """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: ml, uid: %s, creationTimestamp: "%s", labels: {cartograph.dev/federate: "true"}, annotations: {%s}}
                spec:
                  template:
                    spec:
                      %s
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                """.formatted(name, uid, created, annotations, priorityClass.isEmpty() ? "" : "priorityClassName: " + priorityClass, gpus);
        return Documents.read(new java.io.ByteArrayInputStream(yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8))).get(0);
    }

    void step(Input... inputs) {
        coordinator.step(List.of(inputs));
    }

    @Test
    void theQueueIsOrderedByPriorityThenSubmissionTimeAndRetriedWhenCapacityReturns() throws Exception {
        step(new Input.Cluster(cluster("east", 1, now, 8)), new Input.CaughtUp());
        step(new Input.HubChanged(job("a", "uid-a", T0.minusSeconds(10), 8, "", "")),
                new Input.HubChanged(job("b", "uid-b", T0.minusSeconds(5), 8, "cartograph.dev/priority: \"10\"", "")),
                new Input.HubChanged(job("c", "uid-c", T0.minusSeconds(1), 8, "", "high")),
                new Input.HubChanged(job("d", "uid-d", T0.minusSeconds(20), 8, "", "")));
        // by hand: c (class high = 100), b (annotation 10), then d and a by submission time
        assertThat(coordinator.view().queue()).containsExactly("uid-c", "uid-b", "uid-d", "uid-a");
        assertThat(coordinator.view().placements().get("uid-a").reason()).contains("east: needs 1 pods × 8 GPUs", "largest free block 0");
        assertThat(hubWrites).contains("mark a {cartograph.dev/cluster=, cartograph.dev/phase=Queued}");
        assertThat(commands).isEmpty();

        now = now.plusSeconds(1);
        step(new Input.Cluster(cluster("east", 2, now, 0))); // the node's 8 GPUs are free again: one of them fits, the first in line
        assertThat(commands).containsExactly("apply uid-c@east#1");
        assertThat(coordinator.view().queue()).containsExactly("uid-b", "uid-d", "uid-a");
        assertThat(records.get(records.size() - 1).state()).isEqualTo(PlacementRecord.State.PLACED);
        assertThat(records.get(records.size() - 1).reserved()).containsOnlyKeys("east-n0");
    }

    @Test
    void anApplyNobodyConfirmedIsSentAgainAndARefusalFailsTheGangWithItsReason() throws Exception {
        step(new Input.Cluster(cluster("east", 1, now, 0, 0)), new Input.CaughtUp());
        step(new Input.HubChanged(job("x", "uid-x", T0, 8, "", "")), new Input.HubChanged(job("y", "uid-y", T0, 8, "", "")));
        assertThat(commands).containsExactly("apply uid-x@east#1", "apply uid-y@east#1");

        now = now.plusSeconds(31);
        step(new Input.Cluster(cluster("east", 2, now, 0, 0)), new Input.Result(new CommandResult("east", "uid-y", 1, "apply",
                CommandResult.Outcome.APPLIED, "", now)), new Input.Tick());
        assertThat(commands).containsExactly("apply uid-x@east#1", "apply uid-y@east#1", "apply uid-x@east#1");
        assertThat(coordinator.view().placements().get("uid-y").state()).isEqualTo(PlacementRecord.State.APPLIED);

        step(new Input.Result(new CommandResult("east", "uid-x", 1, "apply", CommandResult.Outcome.REJECTED,
                "namespace ml is not allowed (allowed: team-a)", now)));
        PlacementRecord x = coordinator.view().placements().get("uid-x");
        assertThat(x.state()).isEqualTo(PlacementRecord.State.FAILED);
        assertThat(x.reason()).isEqualTo("east refused it: namespace ml is not allowed (allowed: team-a)");
        assertThat(hubWrites).contains("event x Failed: east refused it: namespace ml is not allowed (allowed: team-a)");
        assertThat(coordinator.view().fleet().reservations()).containsOnlyKeys("uid-y"); // x's GPUs are free again
    }

    @Test
    void aStaleCopyOnAnotherClusterIsFencedAndAnInactiveInstanceDecidesNothing() throws Exception {
        step(new Input.Cluster(cluster("east", 1, now, 0)), new Input.HubChanged(job("z", "uid-z", T0, 8, "", "")));
        assertThat(commands).isEmpty(); // not caught up yet: nothing is decided
        assertThat(coordinator.view().active()).isFalse();
        step(new Input.CaughtUp());
        assertThat(commands).containsExactly("apply uid-z@east#1");
        var summary = new dev.cartograph.protocol.WorkloadSummary(new dev.cartograph.protocol.WorkloadKey("west", "ml", "batch", "Job", "z"),
                "batch/v1", "inc", 1, now, Optional.of("uid-z"), "Running", List.of("Running"), 1, res("nvidia.com/gpu", "8"), 0, List.of(),
                null);
        step(new Input.Workload(summary.key(), Optional.of(summary)));
        assertThat(commands).containsExactly("apply uid-z@east#1", "delete uid-z@west#1");
        step(new Input.Workload(summary.key(), Optional.of(summary)));
        assertThat(commands).hasSize(2); // fenced once per cluster and epoch
    }
}
