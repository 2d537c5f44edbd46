package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.scheduling.Taint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The JSON encoding of every protocol record (docs/protocol.md). Each record carries
 * {@code "schema"} (this build writes {@value #SCHEMA}) and {@code "type"}; unknown fields are
 * ignored, so newer writers stay readable. Decoding never throws: a record that cannot be read comes
 * back as {@link Decoded.Failed} with the reason. Thread-safe.
 *
 * <p>A cluster summary lists each distinct node shape (labels other than the hostname, taints,
 * allocatable) once, and each node as its name, shape index, readiness and allocation: a
 * 5,000-node cluster of a few node types stays far under Kafka's 1 MiB record limit.
 */
public final class Wire {
    public static final int SCHEMA = 1;
    /** Per-node labels that would make every node's shape unique; carried on the node entry. */
    static final String HOSTNAME = "kubernetes.io/hostname";

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Wire() {}

    // ---- cluster summaries

    public static byte[] encode(ClusterSummary s) {
        ObjectNode o = header("cluster");
        o.put("cluster", s.cluster());
        Fields.strings(o, "labels", s.labels());
        o.put("agentVersion", s.agentVersion())
                .put("incarnation", s.incarnation())
                .put("sequence", s.sequence())
                .put("heartbeat", s.heartbeat().toString());
        Map<String, Integer> shapeIndex = new LinkedHashMap<>();
        ArrayNode shapes = JSON.createArrayNode();
        ArrayNode nodes = o.putArray("nodes");
        for (NodeState n : s.nodes()) {
            ObjectNode shape = shape(n);
            String key = shape.toString();
            Integer index = shapeIndex.get(key);
            if (index == null) {
                index = shapes.size();
                shapeIndex.put(key, index);
                shapes.add(shape);
            }
            ObjectNode entry = nodes.addObject().put("name", n.name()).put("shape", index);
            if (!n.ready()) {
                entry.put("ready", false);
            }
            if (!n.schedulable()) {
                entry.put("schedulable", false);
            }
            String hostname = n.labels().get(HOSTNAME);
            if (hostname != null && !hostname.equals(n.name())) {
                entry.put("hostname", hostname);
            }
            if (!n.allocated().isEmpty()) {
                Fields.resources(entry, "allocated", n.allocated());
            }
        }
        o.set("shapes", shapes);
        ArrayNode placements = o.putArray("placements");
        for (PlacementReport p : s.placements()) {
            ObjectNode e = placements
                    .addObject()
                    .put("id", p.placementId())
                    .put("epoch", p.epoch())
                    .put("pendingPods", p.pendingPods());
            Fields.resources(e, "pendingDemand", p.pendingDemand());
        }
        return bytes(o);
    }

    public static Decoded<ClusterSummary> decodeCluster(byte[] value) {
        return decode(value, "cluster", o -> {
            List<ObjectNode> shapes = new ArrayList<>();
            o.path("shapes").forEach(sh -> shapes.add((ObjectNode) sh));
            List<NodeState> nodes = new ArrayList<>();
            for (JsonNode n : o.path("nodes")) {
                String name = Fields.text(n, "name");
                int index = (int) Fields.number(n, "shape");
                if (index < 0 || index >= shapes.size()) {
                    throw new Fields.Bad("node '" + name + "' names shape " + index + " of " + shapes.size());
                }
                JsonNode shape = shapes.get(index);
                Map<String, String> labels = new LinkedHashMap<>(Fields.strings(shape, "labels"));
                labels.put(HOSTNAME, Fields.textOr(n, "hostname", name));
                nodes.add(new NodeState(
                        name,
                        labels,
                        taints(shape),
                        n.path("ready").asBoolean(true),
                        n.path("schedulable").asBoolean(true),
                        Fields.boundedResources(shape, "allocatable", "node '" + name + "'"),
                        Fields.boundedResources(n, "allocated", "node '" + name + "'")));
            }
            List<PlacementReport> placements = new ArrayList<>();
            for (JsonNode p : o.path("placements")) {
                long pending = p.path("pendingPods").asLong(0);
                if (pending < 0 || pending > dev.cartograph.interpreter.resources.Ceilings.MAX_REPLICAS) {
                    throw new Fields.Bad(
                            "placement '" + p.path("id").asText() + "' pendingPods = " + pending + " is out of range");
                }
                placements.add(new PlacementReport(
                        Fields.text(p, "id"),
                        Fields.number(p, "epoch"),
                        (int) pending,
                        Fields.resources(p, "pendingDemand")));
            }
            return new ClusterSummary(
                    Fields.text(o, "cluster"),
                    Fields.strings(o, "labels"),
                    Fields.textOr(o, "agentVersion", ""),
                    Fields.text(o, "incarnation"),
                    Fields.number(o, "sequence"),
                    Fields.instant(o, "heartbeat"),
                    nodes,
                    placements);
        });
    }

    private static ObjectNode shape(NodeState n) {
        ObjectNode shape = JSON.createObjectNode();
        Map<String, String> labels = new LinkedHashMap<>(n.labels());
        labels.remove(HOSTNAME);
        Fields.strings(shape, "labels", labels);
        ArrayNode taints = shape.putArray("taints");
        n.taints()
                .forEach(t -> taints.addObject()
                        .put("key", t.key())
                        .put("value", t.value())
                        .put("effect", t.effect()));
        Fields.resources(shape, "allocatable", n.allocatable());
        return shape;
    }

    private static List<Taint> taints(JsonNode owner) {
        List<Taint> out = new ArrayList<>();
        owner.path("taints")
                .forEach(t -> out.add(new Taint(
                        Fields.text(t, "key"), Fields.textOr(t, "value", ""), Fields.textOr(t, "effect", ""))));
        return out;
    }

    // ---- fleet snapshots (the expanded form: what carto plan reads)

    public static byte[] encodeFleet(List<ClusterState> clusters) {
        return bytes(fleet(clusters));
    }

    /** A fleet snapshot as a JSON tree (a copy the caller may add to, as the broker's REST API does). */
    public static ObjectNode fleet(List<ClusterState> clusters) {
        ObjectNode o = JSON.createObjectNode();
        ArrayNode list = o.putArray("clusters");
        for (ClusterState c : clusters) {
            ObjectNode co = list.addObject().put("name", c.name());
            Fields.strings(co, "labels", c.labels());
            co.put("ready", c.ready());
            ArrayNode nodes = co.putArray("nodes");
            for (NodeState n : c.nodes()) {
                ObjectNode no = nodes.addObject().put("name", n.name());
                Fields.strings(no, "labels", n.labels());
                ArrayNode taints = no.putArray("taints");
                n.taints()
                        .forEach(t -> taints.addObject()
                                .put("key", t.key())
                                .put("value", t.value())
                                .put("effect", t.effect()));
                no.put("ready", n.ready()).put("schedulable", n.schedulable());
                Fields.resources(no, "allocatable", n.allocatable());
                Fields.resources(no, "allocated", n.allocated());
            }
        }
        return o;
    }

    public static Decoded<List<ClusterState>> decodeFleet(byte[] value) {
        try {
            JsonNode o = JSON.readTree(value);
            if (!o.path("clusters").isArray()) {
                return new Decoded.Failed<>("a fleet snapshot needs a 'clusters' list");
            }
            List<ClusterState> out = new ArrayList<>();
            for (JsonNode c : o.path("clusters")) {
                List<NodeState> nodes = new ArrayList<>();
                for (JsonNode n : c.path("nodes")) {
                    nodes.add(new NodeState(
                            Fields.text(n, "name"),
                            Fields.strings(n, "labels"),
                            taints(n),
                            n.path("ready").asBoolean(true),
                            n.path("schedulable").asBoolean(true),
                            Fields.resources(n, "allocatable"),
                            Fields.resources(n, "allocated")));
                }
                out.add(new ClusterState(
                        Fields.text(c, "name"),
                        Fields.strings(c, "labels"),
                        c.path("ready").asBoolean(true),
                        nodes));
            }
            return new Decoded.Ok<>(out);
        } catch (IOException | Fields.Bad | IllegalArgumentException | NullPointerException e) {
            return new Decoded.Failed<>(e.getMessage());
        }
    }

    // ---- workload summaries

    public static byte[] encode(WorkloadSummary w) {
        ObjectNode o = header("workload");
        WorkloadKey k = w.key();
        o.put("cluster", k.cluster())
                .put("namespace", k.namespace())
                .put("group", k.group())
                .put("kind", k.kind())
                .put("name", k.name())
                .put("apiVersion", w.apiVersion())
                .put("incarnation", w.incarnation())
                .put("sequence", w.sequence())
                .put("observed", w.observed().toString());
        w.placementId().ifPresent(p -> o.put("placementId", p));
        o.put("phase", w.phase());
        ArrayNode phases = o.putArray("phases");
        w.phases().forEach(phases::add);
        o.put("pods", w.pods()).put("minMember", w.minMember());
        Fields.resources(o, "resources", w.resources());
        ArrayNode roles = o.putArray("roles");
        for (WorkloadSummary.Role r : w.roles()) {
            ObjectNode ro = roles.addObject()
                    .put("component", r.component())
                    .put("instance", r.instance())
                    .put("desired", r.desired())
                    .put("min", r.min());
            r.max().ifPresent(m -> ro.put("max", m));
            Fields.resources(ro, "perPod", r.perPod());
        }
        if (!w.status().isNull()) {
            o.set("status", w.status());
        }
        return bytes(o);
    }

    public static Decoded<WorkloadSummary> decodeWorkload(byte[] value) {
        return decode(value, "workload", o -> {
            List<String> phases = new ArrayList<>();
            o.path("phases").forEach(p -> phases.add(p.asText()));
            List<WorkloadSummary.Role> roles = new ArrayList<>();
            for (JsonNode r : o.path("roles")) {
                roles.add(new WorkloadSummary.Role(
                        Fields.text(r, "component"),
                        Fields.text(r, "instance"),
                        Fields.number(r, "desired"),
                        Fields.number(r, "min"),
                        r.has("max") ? Optional.of(r.get("max").asLong()) : Optional.empty(),
                        Fields.resources(r, "perPod")));
            }
            WorkloadKey key = new WorkloadKey(
                    Fields.text(o, "cluster"),
                    Fields.textOr(o, "namespace", ""),
                    Fields.textOr(o, "group", ""),
                    Fields.text(o, "kind"),
                    Fields.text(o, "name"));
            return new WorkloadSummary(
                    key,
                    Fields.text(o, "apiVersion"),
                    Fields.text(o, "incarnation"),
                    Fields.number(o, "sequence"),
                    Fields.instant(o, "observed"),
                    Optional.ofNullable(o.path("placementId").textValue()),
                    Fields.text(o, "phase"),
                    phases,
                    Fields.number(o, "pods"),
                    Fields.resources(o, "resources"),
                    o.path("minMember").asLong(0),
                    roles,
                    o.path("status"));
        });
    }

    // ---- commands and their results

    public static byte[] encode(Command c) {
        ObjectNode o = header(c instanceof Command.Apply ? "apply" : "delete");
        o.put("placementId", c.placementId())
                .put("epoch", c.epoch())
                .put("issued", c.issued().toString());
        if (c instanceof Command.Apply apply) {
            o.set("manifest", apply.manifest());
        }
        return bytes(o);
    }

    public static Decoded<Command> decodeCommand(byte[] value) {
        try {
            JsonNode o = JSON.readTree(value);
            String type = o.path("type").asText("");
            if (type.equals("apply")) {
                return decode(value, "apply", n -> {
                    if (!n.path("manifest").isObject()) {
                        throw new Fields.Bad("field 'manifest' is missing or not an object");
                    }
                    return new Command.Apply(
                            Fields.text(n, "placementId"),
                            Fields.number(n, "epoch"),
                            Fields.instant(n, "issued"),
                            n.get("manifest"));
                });
            }
            return decode(
                    value,
                    "delete",
                    n -> new Command.Delete(
                            Fields.text(n, "placementId"), Fields.number(n, "epoch"), Fields.instant(n, "issued")));
        } catch (IOException e) {
            return new Decoded.Failed<>("not JSON: " + firstLine(e.getMessage()));
        }
    }

    public static byte[] encode(CommandResult r) {
        ObjectNode o = header("result");
        o.put("cluster", r.cluster())
                .put("placementId", r.placementId())
                .put("epoch", r.epoch())
                .put("command", r.command())
                .put("outcome", r.outcome().name())
                .put("reason", r.reason())
                .put("at", r.at().toString());
        return bytes(o);
    }

    public static Decoded<CommandResult> decodeResult(byte[] value) {
        return decode(value, "result", o -> {
            CommandResult.Outcome outcome;
            try {
                outcome = CommandResult.Outcome.valueOf(Fields.text(o, "outcome"));
            } catch (IllegalArgumentException e) {
                throw new Fields.Bad(
                        "field 'outcome' is not one of " + java.util.Arrays.toString(CommandResult.Outcome.values()));
            }
            return new CommandResult(
                    Fields.text(o, "cluster"),
                    Fields.text(o, "placementId"),
                    Fields.number(o, "epoch"),
                    Fields.text(o, "command"),
                    outcome,
                    Fields.textOr(o, "reason", ""),
                    Fields.instant(o, "at"));
        });
    }

    // ---- placements (the broker's durable decisions)

    public static byte[] encode(PlacementRecord p) {
        ObjectNode o = header("placement");
        o.put("uid", p.uid());
        o.putObject("target")
                .put("namespace", p.target().namespace())
                .put("apiVersion", p.target().apiVersion())
                .put("kind", p.target().kind())
                .put("name", p.target().name());
        p.cluster().ifPresent(c -> o.put("cluster", c));
        o.put("epoch", p.epoch()).put("state", p.state().name()).put("reason", p.reason());
        ObjectNode reserved = o.putObject("reserved");
        new java.util.TreeMap<>(p.reserved()).forEach((node, amount) -> Fields.resources(reserved, node, amount));
        o.put("priority", p.priority())
                .put("submitted", p.submitted().toString())
                .put("at", p.at().toString())
                .put("term", p.term());
        return bytes(o);
    }

    public static Decoded<PlacementRecord> decodePlacement(byte[] value) {
        return decode(value, "placement", o -> {
            JsonNode t = o.path("target");
            PlacementRecord.State state;
            try {
                state = PlacementRecord.State.valueOf(Fields.text(o, "state"));
            } catch (IllegalArgumentException e) {
                throw new Fields.Bad(
                        "field 'state' is not one of " + java.util.Arrays.toString(PlacementRecord.State.values()));
            }
            Map<String, dev.cartograph.interpreter.resources.ResourceList> reserved = new LinkedHashMap<>();
            o.path("reserved")
                    .fieldNames()
                    .forEachRemaining(node -> reserved.put(node, Fields.resources(o.path("reserved"), node)));
            return new PlacementRecord(
                    Fields.text(o, "uid"),
                    new PlacementRecord.Target(
                            Fields.textOr(t, "namespace", ""),
                            Fields.text(t, "apiVersion"),
                            Fields.text(t, "kind"),
                            Fields.text(t, "name")),
                    Optional.ofNullable(o.path("cluster").textValue()),
                    Fields.number(o, "epoch"),
                    state,
                    Fields.textOr(o, "reason", ""),
                    reserved,
                    (int) o.path("priority").asLong(0),
                    Fields.instant(o, "submitted"),
                    Fields.instant(o, "at"),
                    o.path("term").asLong(0));
        });
    }

    // ---- shared

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static ObjectNode header(String type) {
        return JSON.createObjectNode().put("schema", SCHEMA).put("type", type);
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + node.path("type"), e);
        }
    }

    private static <T> Decoded<T> decode(byte[] value, String type, Function<JsonNode, T> read) {
        if (value == null) {
            return new Decoded.Failed<>("empty record (a tombstone is not a " + type + " record)");
        }
        try {
            JsonNode o = JSON.readTree(value);
            Fields.requireSchema(o, type);
            return new Decoded.Ok<>(read.apply(o));
        } catch (IOException e) {
            return new Decoded.Failed<>("not JSON: " + firstLine(e.getMessage()));
        } catch (Fields.Bad | IllegalArgumentException | NullPointerException | ClassCastException e) {
            return new Decoded.Failed<>(e.getMessage());
        }
    }
}
