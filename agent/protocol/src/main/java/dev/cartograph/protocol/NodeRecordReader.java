package dev.cartograph.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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
 * Reads a {@code cluster.node} record as this build writes it in one pass over its bytes, without building a
 * tree, taking its labels, taints and amounts from {@link NodeParts} when their JSON text was seen before (a
 * broker reads tens of thousands of these a second). Anything not exactly as written here — a missing or
 * mistyped field, a schema or type other than expected, a part whose checks fail — gives empty, and the caller
 * decodes the record the usual way, which says what is wrong. Thread-safe (the parts are the caller's).
 */
final class NodeRecordReader {
    private static final JsonFactory FACTORY = Envelope.JSON.getFactory();

    private NodeRecordReader() {}

    static Optional<ClusterRecord> read(byte[] value, Key key, NodeParts parts) {
        try (JsonParser p = FACTORY.createParser(value)) {
            return Optional.ofNullable(node(p, value, key, parts));
        } catch (IOException | RuntimeException e) {
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
    private static Node node(JsonParser p, byte[] value, Key key, NodeParts parts) throws IOException {
        Seen s = fields(p, value);
        if (s == null
                || s.schema < 1
                || s.schema > Wire.SCHEMA
                || s.resync < 0
                || !"cluster.node".equals(s.type)
                || s.cluster == null
                || s.incarnation == null
                || !key.name().equals(s.name)
                || s.labels == null
                || s.taints == null
                || s.allocatable == null) {
            return null;
        }
        String where = "node '" + s.name + "'";
        Map<String, String> labels = new LinkedHashMap<>(parts.labels(s.labels, () -> strings(tree(s.labels))));
        labels.put(ClusterRecordCodec.HOSTNAME, s.hostname == null ? s.name : s.hostname);
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

    private static ResourceList amounts(NodeParts parts, Text text, String field, String where) {
        return parts.resources(text, () -> Fields.boundedResources(wrap(field, tree(text)), field, where));
    }

    /** One pass over the record's fields; null when it is not one object. */
    private static Seen fields(JsonParser p, byte[] value) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        Seen s = new Seen();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "schema" -> s.schema = number(t, p);
                case "resync" -> s.resync = number(t, p);
                case "type" -> s.type = text(p, t);
                case "cluster" -> s.cluster = text(p, t);
                case "incarnation" -> s.incarnation = text(p, t);
                case "name" -> s.name = text(p, t);
                case "hostname" -> s.hostname = text(p, t);
                case "ready" -> s.ready = bool(t);
                case "schedulable" -> s.schedulable = bool(t);
                case "labels" -> s.labels = part(p, t, value, JsonToken.START_OBJECT);
                case "taints" -> s.taints = part(p, t, value, JsonToken.START_ARRAY);
                case "allocatable" -> s.allocatable = part(p, t, value, JsonToken.START_OBJECT);
                case "allocated" -> s.allocated = part(p, t, value, JsonToken.START_OBJECT);
                default -> p.skipChildren(); // unknown fields are ignored
            }
        }
        return p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null ? s : null;
    }

    private static long number(JsonToken t, JsonParser p) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) {
            throw new IllegalStateException("not a whole number");
        }
        return p.getLongValue();
    }

    /** A string value; a non-string makes the record not ours (null is returned and checked by the caller). */
    private static String text(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_STRING) {
            p.skipChildren();
            throw new IllegalStateException("not text");
        }
        return p.getText();
    }

    private static boolean bool(JsonToken t) {
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return t == JsonToken.VALUE_TRUE;
        }
        throw new IllegalStateException("not a boolean");
    }

    /** The JSON text of an object or array value, which the parser skips. */
    private static Text part(JsonParser p, JsonToken t, byte[] value, JsonToken expected) throws IOException {
        if (t != expected) {
            throw new IllegalStateException("not " + expected);
        }
        int from = (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        int to = (int) p.currentLocation().getByteOffset();
        return new Text(value, from, to);
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
