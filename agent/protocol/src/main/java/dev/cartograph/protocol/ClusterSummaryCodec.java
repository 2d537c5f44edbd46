package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.Ceilings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code cluster} record: a {@link ClusterSummary}. It lists each distinct node shape (labels other than
 * the hostname, taints, allocatable) once, and each node as its name, shape index, readiness and allocation:
 * a 5,000-node cluster of a few node types stays far under Kafka's 1 MiB record limit. Decoding refuses
 * amounts no node or pod could hold ({@link Ceilings}). Thread-safe.
 */
final class ClusterSummaryCodec {
    /** Per-node labels that would make every node's shape unique; carried on the node entry. */
    static final String HOSTNAME = "kubernetes.io/hostname";

    private ClusterSummaryCodec() {}

    static byte[] encode(ClusterSummary s) {
        ObjectNode o = Envelope.header("cluster");
        o.put("cluster", s.cluster());
        Fields.strings(o, "labels", s.labels());
        o.put("agentVersion", s.agentVersion())
                .put("incarnation", s.incarnation())
                .put("sequence", s.sequence())
                .put("heartbeat", s.heartbeat().toString());
        Map<String, Integer> shapeIndex = new LinkedHashMap<>();
        ArrayNode shapes = Envelope.JSON.createArrayNode();
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
            node(nodes.addObject(), n, index);
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
        return Envelope.bytes(o);
    }

    static Decoded<ClusterSummary> decode(byte[] value) {
        return Envelope.decode(value, "cluster", o -> {
            List<ObjectNode> shapes = new ArrayList<>();
            o.path("shapes").forEach(sh -> shapes.add((ObjectNode) sh));
            List<NodeState> nodes = new ArrayList<>();
            for (JsonNode n : o.path("nodes")) {
                nodes.add(node(n, shapes));
            }
            List<PlacementReport> placements = new ArrayList<>();
            for (JsonNode p : o.path("placements")) {
                placements.add(placement(p));
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

    /** A node entry: only what differs from the defaults (ready, schedulable, hostname = name, nothing allocated). */
    private static void node(ObjectNode entry, NodeState n, int shape) {
        entry.put("name", n.name()).put("shape", shape);
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

    private static NodeState node(JsonNode n, List<ObjectNode> shapes) {
        String name = Fields.text(n, "name");
        int index = (int) Fields.number(n, "shape");
        if (index < 0 || index >= shapes.size()) {
            throw new Fields.Bad("node '" + name + "' names shape " + index + " of " + shapes.size());
        }
        JsonNode shape = shapes.get(index);
        Map<String, String> labels = new LinkedHashMap<>(Fields.strings(shape, "labels"));
        labels.put(HOSTNAME, Fields.textOr(n, "hostname", name));
        return new NodeState(
                name,
                labels,
                Fields.taints(shape),
                n.path("ready").asBoolean(true),
                n.path("schedulable").asBoolean(true),
                Fields.boundedResources(shape, "allocatable", "node '" + name + "'"),
                Fields.boundedResources(n, "allocated", "node '" + name + "'"));
    }

    private static PlacementReport placement(JsonNode p) {
        long pending = p.path("pendingPods").asLong(0);
        if (pending < 0 || pending > Ceilings.MAX_REPLICAS) {
            throw new Fields.Bad(
                    "placement '" + p.path("id").asText() + "' pendingPods = " + pending + " is out of range");
        }
        return new PlacementReport(
                Fields.text(p, "id"), Fields.number(p, "epoch"), (int) pending, Fields.resources(p, "pendingDemand"));
    }

    private static ObjectNode shape(NodeState n) {
        ObjectNode shape = Envelope.JSON.createObjectNode();
        Map<String, String> labels = new LinkedHashMap<>(n.labels());
        labels.remove(HOSTNAME);
        Fields.strings(shape, "labels", labels);
        Fields.taints(shape, "taints", n.taints());
        Fields.resources(shape, "allocatable", n.allocatable());
        return shape;
    }
}
