package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import dev.cartograph.protocol.NodeParts.Text;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@code cluster.node} record as this build writes it in one pass over its bytes ({@link FlatJson}), without
 * a parser or a tree, taking its labels, taints and amounts from {@link NodeParts} when their JSON text was seen
 * before (a broker reads tens of thousands of these a second). Anything not exactly as written here — a missing,
 * mistyped or unknown field, an escape in a string, a schema or type other than expected, a part whose checks fail —
 * gives empty, and the caller decodes the record the usual way (Jackson), which says what is wrong. Thread-safe
 * (the parts are the caller's).
 */
final class NodeRecordReader {
    /** The fields this build writes, in the order it writes them. */
    private static final String[] FIELDS = {
        "schema",
        "type",
        "cluster",
        "incarnation",
        "resync",
        "name",
        "hostname",
        "labels",
        "taints",
        "allocatable",
        "ready",
        "schedulable",
        "allocated"
    };

    private static final String TYPE = "cluster.node";

    private NodeRecordReader() {}

    static Optional<ClusterRecord> read(byte[] value, Key key, NodeParts parts) {
        try {
            return Optional.ofNullable(node(value, key, parts));
        } catch (RuntimeException e) { // FlatJson.NotPlain, or a part whose checks fail
            return Optional.empty();
        }
    }

    /** The fields of a node record, as read. */
    private static final class Seen {
        long schema = -1;
        long resync;
        String type;
        String cluster;
        String incarnation;
        String name;
        String hostname;
        boolean ready = true;
        boolean schedulable = true;
        Text labels;
        Text taints;
        Text allocatable;
        Text allocated;
    }

    /** The node, or null when the record is not as this build writes it. */
    private static Node node(byte[] value, Key key, NodeParts parts) {
        Seen s = fields(new FlatJson(value), parts);
        if (s == null
                || s.schema < 1
                || s.schema > Wire.SCHEMA
                || s.resync < 0
                || !TYPE.equals(s.type)
                || s.cluster == null
                || s.incarnation == null
                || !key.name().equals(s.name)
                || s.labels == null
                || s.taints == null
                || s.allocatable == null) {
            return null;
        }
        String where = "node '" + s.name + "'";
        Map<String, String> labels = withHostname(
                parts, parts.labels(s.labels, () -> strings(tree(s.labels))), s.hostname == null ? s.name : s.hostname);
        return new Node(
                s.cluster,
                new Stamp(s.incarnation, s.resync),
                new NodeState(
                        s.name,
                        labels,
                        parts.taints(s.taints, () -> Fields.taints(wrap("taints", tree(s.taints)))),
                        s.ready,
                        s.schedulable,
                        amounts(parts, s.allocatable, "allocatable", where),
                        s.allocated == null ? ResourceList.EMPTY : amounts(parts, s.allocated, "allocated", where)));
    }

    /** The shared labels and the node's hostname, as an immutable map (which {@link NodeState} keeps as it is). */
    private static Map<String, String> withHostname(NodeParts parts, Map<String, String> shared, String hostname) {
        if (shared.containsKey(ClusterRecordCodec.HOSTNAME)) {
            Map<String, String> labels = new LinkedHashMap<>(shared);
            labels.put(ClusterRecordCodec.HOSTNAME, hostname);
            return Map.copyOf(labels);
        }
        Map.Entry<String, String>[] entries = parts.entries(shared);
        entries[shared.size()] = Map.entry(ClusterRecordCodec.HOSTNAME, hostname);
        return Map.ofEntries(entries);
    }

    private static ResourceList amounts(NodeParts parts, Text text, String field, String where) {
        return parts.resources(text, () -> Fields.boundedResources(wrap(field, tree(text)), field, where));
    }

    /** One pass over the record's fields (a field read twice: the last one counts, as with Jackson). */
    private static Seen fields(FlatJson json, NodeParts parts) {
        Seen s = new Seen();
        if (json.open()) {
            return s;
        }
        for (String field = json.name(true, FIELDS); field != null; field = json.name(false, FIELDS)) {
            switch (field) {
                case "schema" -> s.schema = json.number();
                case "resync" -> s.resync = json.number();
                case "type" -> s.type = json.text(TYPE);
                case "cluster" -> s.cluster = parts.cluster = json.text(parts.cluster);
                case "incarnation" -> s.incarnation = parts.incarnation = json.text(parts.incarnation);
                case "name" -> s.name = json.text();
                case "hostname" -> s.hostname = json.text();
                case "ready" -> s.ready = json.bool();
                case "schedulable" -> s.schedulable = json.bool();
                case "labels" -> s.labels = json.part('{');
                case "taints" -> s.taints = json.part('[');
                case "allocatable" -> s.allocatable = json.part('{');
                case "allocated" -> s.allocated = json.part('{');
                default -> { // a field this build does not write: ignored, once it is known to be JSON
                    Text unknown = json.skip();
                    if (unknown != null) {
                        tree(unknown);
                    }
                }
            }
        }
        return s;
    }

    private static JsonNode tree(Text text) {
        try {
            return Envelope.JSON.readTree(text.bytes(), text.from(), text.length());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode wrap(String field, JsonNode part) {
        ObjectNode o = Envelope.JSON.createObjectNode();
        o.set(field, part);
        return o;
    }

    private static Map<String, String> strings(JsonNode labels) {
        Map<String, String> out = new LinkedHashMap<>();
        labels.fields().forEachRemaining(e -> {
            if (!e.getValue().isTextual()) {
                throw new IllegalStateException("label is not text");
            }
            out.put(e.getKey(), e.getValue().textValue());
        });
        return out;
    }
}
