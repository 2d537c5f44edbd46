package dev.cartograph.broker.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.Ceilings;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import dev.cartograph.protocol.PlacementReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster record as agents wrote it before per-node records (one record per cluster: every node, node shapes
 * listed once), kept only as {@link SummaryVolumeBenchmark}'s baseline: the same encoding and decoding work
 * ({@code ClusterSummaryCodec} at commit dc2dbd1), written against Jackson directly. Thread-safe.
 */
final class WholeSummaryFormat {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTNAME = "kubernetes.io/hostname";

    private WholeSummaryFormat() {}

    static byte[] encode(ClusterSummary s) {
        ObjectNode o = JSON.createObjectNode().put("schema", 1).put("type", "cluster");
        o.put("cluster", s.cluster());
        strings(o, "labels", s.labels());
        o.put("agentVersion", s.agentVersion())
                .put("incarnation", s.incarnation())
                .put("sequence", s.sequence())
                .put("heartbeat", s.heartbeat().toString());
        Map<String, Integer> shapeIndex = new LinkedHashMap<>();
        ArrayNode shapes = JSON.createArrayNode();
        ArrayNode nodes = o.putArray("nodes");
        for (NodeState n : s.nodes()) {
            ObjectNode shape = JSON.createObjectNode();
            Map<String, String> labels = new LinkedHashMap<>(n.labels());
            labels.remove(HOSTNAME);
            strings(shape, "labels", labels);
            ArrayNode taints = shape.putArray("taints");
            n.taints()
                    .forEach(t -> taints.addObject()
                            .put("key", t.key())
                            .put("value", t.value())
                            .put("effect", t.effect()));
            resources(shape, "allocatable", n.allocatable());
            Integer index = shapeIndex.computeIfAbsent(shape.toString(), k -> {
                shapes.add(shape);
                return shapes.size() - 1;
            });
            ObjectNode entry = nodes.addObject().put("name", n.name()).put("shape", index);
            if (!n.ready()) {
                entry.put("ready", false);
            }
            if (!n.schedulable()) {
                entry.put("schedulable", false);
            }
            if (!n.allocated().isEmpty()) {
                resources(entry, "allocated", n.allocated());
            }
        }
        o.set("shapes", shapes);
        ArrayNode placements = o.putArray("placements");
        for (PlacementReport p : s.placements()) {
            resources(
                    placements
                            .addObject()
                            .put("id", p.placementId())
                            .put("epoch", p.epoch())
                            .put("pendingPods", p.pendingPods()),
                    "pendingDemand",
                    p.pendingDemand());
        }
        try {
            return JSON.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ClusterSummary decode(byte[] value) {
        try {
            JsonNode o = JSON.readTree(value);
            List<JsonNode> shapes = new ArrayList<>();
            o.path("shapes").forEach(shapes::add);
            List<NodeState> nodes = new ArrayList<>();
            for (JsonNode n : o.path("nodes")) {
                String name = n.path("name").textValue();
                JsonNode shape = shapes.get(n.path("shape").intValue());
                Map<String, String> labels = new LinkedHashMap<>();
                shape.path("labels")
                        .fields()
                        .forEachRemaining(
                                e -> labels.put(e.getKey(), e.getValue().asText()));
                labels.put(HOSTNAME, n.path("hostname").asText(name));
                List<Taint> taints = new ArrayList<>();
                shape.path("taints")
                        .forEach(t -> taints.add(new Taint(
                                t.path("key").asText(),
                                t.path("value").asText(""),
                                t.path("effect").asText(""))));
                nodes.add(new NodeState(
                        name,
                        labels,
                        taints,
                        n.path("ready").asBoolean(true),
                        n.path("schedulable").asBoolean(true),
                        bounded(shape.path("allocatable")),
                        bounded(n.path("allocated"))));
            }
            List<PlacementReport> placements = new ArrayList<>();
            for (JsonNode p : o.path("placements")) {
                placements.add(new PlacementReport(
                        p.path("id").asText(),
                        p.path("epoch").asLong(),
                        p.path("pendingPods").asInt(),
                        bounded(p.path("pendingDemand"))));
            }
            Map<String, String> labels = new LinkedHashMap<>();
            o.path("labels")
                    .fields()
                    .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            return new ClusterSummary(
                    o.path("cluster").asText(),
                    labels,
                    o.path("agentVersion").asText(""),
                    o.path("incarnation").asText(),
                    o.path("sequence").asLong(),
                    Instant.parse(o.path("heartbeat").asText()),
                    nodes,
                    placements);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ResourceList bounded(JsonNode o) {
        TreeMap<String, BigDecimal> amounts = new TreeMap<>();
        o.fields().forEachRemaining(e -> {
            BigDecimal v = Quantity.parse(e.getValue().asText()).orElseThrow();
            Ceilings.checkPerPod(e.getKey(), v).ifPresent(why -> {
                throw new IllegalArgumentException(why);
            });
            amounts.put(e.getKey(), v);
        });
        return new ResourceList(amounts);
    }

    private static void strings(ObjectNode parent, String field, Map<String, String> values) {
        ObjectNode o = parent.putObject(field);
        new TreeMap<>(values).forEach(o::put);
    }

    private static void resources(ObjectNode parent, String field, ResourceList list) {
        ObjectNode o = parent.putObject(field);
        list.amounts().forEach((k, v) -> o.put(k, Quantity.format(v)));
    }
}
