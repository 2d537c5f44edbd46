package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Planner;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A coordinator on its own, for tests: inputs in; placement records, commands and hub writes out,
 * as lists (no Kafka, no API server); a clock the test moves. Not thread-safe.
 */
class CoordinatorHarness {
    static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");

    final List<PlacementRecord> records = new ArrayList<>();
    final List<Command> sent = new ArrayList<>();
    final List<String> commands = new ArrayList<>();
    final List<String> hubWrites = new ArrayList<>();
    /** When set, the next placement writes fail (the placements topic is unreachable). */
    boolean placementsDown;
    /** When set, every batch written is refused as fenced (a newer writer took over, or Kafka aborted a transaction). */
    boolean fenced;
    /** Look-ups of hub dependencies that throw (a broken hub client): of those whose name it accepts. */
    java.util.function.Predicate<String> findFails = name -> false;
    /** Hub writes that throw (a broken hub client): marks on objects whose name it accepts. */
    java.util.function.Predicate<String> markFails = name -> false;
    /** The largest command the outbox takes (its record limit). */
    int maxCommandBytes = Integer.MAX_VALUE;

    Instant now = T0;
    final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
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
    /** The hub's ConfigMaps, Secrets, ServiceAccounts and claims (namespace/Kind/name → object); tests put them here. */
    final Map<String, JsonNode> dependencies = new java.util.concurrent.ConcurrentHashMap<>();

    final HubDependencies hubDependencies = new HubDependencies() {
        @Override
        public boolean watched() {
            return true;
        }

        @Override
        public Optional<JsonNode> find(
                dev.cartograph.interpreter.dependency.Dependency.Kind kind, String namespace, String name) {
            if (findFails.test(name)) {
                throw new IllegalStateException("hub client broke");
            }
            return Optional.ofNullable(dependencies.get(namespace + "/" + kind.kind() + "/" + name));
        }
    };

    final Outbox outbox = new Outbox() {
        /** One batch at a time, as a transaction would: all of it, or (when the placements topic is down) none. */
        @Override
        public void write(List<Write> writes) throws Exception {
            if (fenced) {
                throw new Outbox.Fenced("the producer's epoch was bumped", null);
            }
            if (placementsDown && writes.stream().anyMatch(w -> !(w instanceof Write.ToCluster))) {
                throw new java.util.concurrent.TimeoutException("placements topic not reachable");
            }
            Outbox.super.write(writes);
        }

        @Override
        public void placement(PlacementRecord record) throws Exception {
            if (placementsDown) {
                throw new java.util.concurrent.TimeoutException("placements topic not reachable");
            }
            records.add(record);
        }

        @Override
        public void forget(String uid) throws Exception {
            if (placementsDown) {
                throw new java.util.concurrent.TimeoutException("placements topic not reachable");
            }
            commands.add("forget " + uid);
        }

        /** As Kafka's outbox judges it, against {@link #maxCommandBytes} (the encoded command alone). */
        @Override
        public Optional<String> tooLarge(Command command) {
            int bytes = dev.cartograph.protocol.Wire.encode(command).length;
            return bytes > maxCommandBytes
                    ? Optional.of("as a command it is " + bytes + " bytes; at most " + maxCommandBytes)
                    : Optional.empty();
        }

        @Override
        public boolean command(String cluster, Command command) {
            sent.add(command);
            commands.add((command instanceof Command.Apply ? "apply " : "delete ") + command.placementId() + "@"
                    + cluster + "#" + command.epoch());
            return true;
        }
    };
    final Hub hub = new Hub() {
        @Override
        public void addFinalizer(JsonNode object) {}

        @Override
        public void removeFinalizer(JsonNode object) {
            hubWrites.add("unfinalize " + object.path("metadata").path("name").asText());
        }

        @Override
        public void mark(JsonNode object, Map<String, String> labels, Map<String, String> annotations) {
            if (markFails.test(object.path("metadata").path("name").asText())) {
                throw new IllegalStateException("hub client broke");
            }
            hubWrites.add("mark " + object.path("metadata").path("name").asText() + " " + new TreeMap<>(labels)
                    + (annotations.containsKey(MetadataKeys.REASON_ANNOTATION)
                            ? " reason=" + annotations.get(MetadataKeys.REASON_ANNOTATION)
                            : ""));
        }

        @Override
        public void status(JsonNode object, JsonNode status) {}

        @Override
        public void event(JsonNode object, String type, String reason, String message) {
            hubWrites.add("event " + object.path("metadata").path("name").asText() + " " + reason + ": " + message);
        }
    };
    final Coordinator coordinator;

    CoordinatorHarness() {
        this(settings(""));
    }

    /** Settings of a broker that elects its leader on a Lease in {@code leaseNamespace} (none: {@code ""}). */
    static BrokerSettings settings(String leaseNamespace) {
        return new BrokerSettings(
                "test",
                "t",
                Map.of(),
                Duration.ofSeconds(30),
                Duration.ofSeconds(60),
                "cartograph.dev/federate=true",
                Planner.Policy.BIN_PACK,
                false,
                leaseNamespace,
                "",
                Duration.ofSeconds(1));
    }

    /** Each placement attempt the coordinator reported, as "outcome after mark" (marks count up from 1). */
    final List<String> decisions = new ArrayList<>();

    private final DecisionObserver observer = new DecisionObserver() {
        private long marks;

        @Override
        public long started() {
            return ++marks;
        }

        @Override
        public void decided(Outcome outcome, long started) {
            decisions.add(outcome.label() + " after " + started);
        }
    };

    CoordinatorHarness(BrokerSettings settings) {
        coordinator = new Coordinator(
                settings,
                Interpreter.of(Catalog.load().definitions()),
                outbox,
                hub,
                clock,
                classes,
                hubDependencies,
                observer);
    }

    void step(Input... inputs) {
        coordinator.step(List.of(inputs));
    }

    /** A cluster of 8-GPU H100 nodes with this many GPUs used on each, its agent's clock reading {@code heartbeat}. */
    static ClusterSummary cluster(String name, long sequence, Instant heartbeat, int... usedGpus) {
        return cluster(name, sequence, heartbeat, List.of(), usedGpus);
    }

    static ClusterSummary cluster(
            String name, long sequence, Instant heartbeat, List<PlacementReport> placements, int... usedGpus) {
        List<NodeState> nodes = new ArrayList<>();
        for (int i = 0; i < usedGpus.length; i++) {
            nodes.add(new NodeState(
                    name + "-n" + i,
                    Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"),
                    List.of(),
                    true,
                    true,
                    res("nvidia.com/gpu", "8", "cpu", "64", "memory", "512Gi", "pods", "110"),
                    res("nvidia.com/gpu", "" + usedGpus[i])));
        }
        return new ClusterSummary(name, Map.of(), "v", "inc", sequence, heartbeat, nodes, placements);
    }

    static ResourceList res(String... kv) {
        TreeMap<String, java.math.BigDecimal> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]).orElseThrow());
        }
        return new ResourceList(m);
    }

    static JsonNode yaml(String text) {
        try {
            return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                    .get(0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A federated Job on the hub asking for {@code gpus} GPUs in one pod. */
    static JsonNode job(String name, String uid, Instant created, int gpus, String annotations, String priorityClass) {
        return yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: ml, uid: %s, creationTimestamp: "%s", labels: {cartograph.dev/federate: "true"}, annotations: {%s}}
                spec:
                  template:
                    spec:
                      %s
                      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "%d"}}}]
                """.formatted(
                        name,
                        uid,
                        created,
                        annotations,
                        priorityClass.isEmpty() ? "" : "priorityClassName: " + priorityClass,
                        gpus));
    }

    /**
     * {@code job} mounting ConfigMap {@code cfg-<name>}, which the hub has: the broker looks it up before it plans the
     * job, and again when it builds its apply (after its record and reservation).
     */
    JsonNode withConfig(JsonNode job) {
        return withConfig(job, "cfg-" + job.path("metadata").path("name").asText());
    }

    /** {@code job} mounting ConfigMap {@code config}, which the hub has. */
    JsonNode withConfig(JsonNode job, String config) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = job.deepCopy();
        com.fasterxml.jackson.databind.node.ObjectNode pod =
                copy.with("spec").with("template").with("spec");
        pod.putArray("volumes")
                .addObject()
                .put("name", "cfg")
                .putObject("configMap")
                .put("name", config);
        dependencies.put("ml/ConfigMap/" + config, yaml("""
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: %s, namespace: ml, uid: u-%s, resourceVersion: "1"}
                data: {a: b}
                """.formatted(config, config)));
        return copy;
    }

    /** A placement record of Job ml/{@code uid} (uid and name alike), recorded and submitted at {@link #T0}. */
    static PlacementRecord record(String uid, State state, Optional<String> cluster, long epoch) {
        return new PlacementRecord(
                uid,
                new PlacementRecord.Target("ml", "batch/v1", "Job", uid),
                cluster,
                epoch,
                state,
                "",
                Map.of(),
                0,
                T0,
                T0);
    }
}
