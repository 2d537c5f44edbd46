package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reading and writing the fields records share; a missing or malformed field is a {@link Bad}. */
final class Fields {
    private Fields() {}

    /** A field that is missing or malformed; decoding turns it into {@link Decoded.Failed}. */
    static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new Bad("field '" + field + "' is missing or not text");
        }
        return v.textValue();
    }

    static String textOr(JsonNode n, String field, String fallback) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? fallback : v.asText();
    }

    static long number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToLong()) {
            throw new Bad("field '" + field + "' is missing or not a whole number");
        }
        return v.asLong();
    }

    static Instant instant(JsonNode n, String field) {
        try {
            return Instant.parse(text(n, field));
        } catch (DateTimeParseException e) {
            throw new Bad("field '" + field + "' is not an ISO-8601 instant");
        }
    }

    static Map<String, String> strings(JsonNode n, String field) {
        Map<String, String> out = new LinkedHashMap<>();
        n.path(field)
                .fields()
                .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    static ObjectNode strings(ObjectNode parent, String field, Map<String, String> values) {
        ObjectNode o = parent.putObject(field);
        new TreeMap<>(values).forEach(o::put);
        return o;
    }

    static ResourceList resources(JsonNode n, String field) {
        TreeMap<String, BigDecimal> amounts = new TreeMap<>();
        n.path(field)
                .fields()
                .forEachRemaining(e -> amounts.put(
                        e.getKey(),
                        Quantity.parse(e.getValue().asText())
                                .orElseThrow(() -> new Bad("field '" + field + "." + e.getKey() + "': '"
                                        + e.getValue().asText() + "' is not a Kubernetes quantity"))));
        return new ResourceList(amounts);
    }

    /**
     * {@link #resources(JsonNode, String)} of something one node or pod holds: an amount that is
     * negative or beyond what any pod could ask ({@code Ceilings}) is refused, naming {@code where}.
     */
    static ResourceList boundedResources(JsonNode n, String field, String where) {
        ResourceList list = resources(n, field);
        list.amounts()
                .forEach((k, v) -> dev.cartograph.interpreter.resources.Ceilings.checkPerPod(k, v)
                        .ifPresent(why -> {
                            throw new Bad(where + " " + field + "." + k + " = " + Quantity.format(v) + " " + why);
                        }));
        return list;
    }

    static void resources(ObjectNode parent, String field, ResourceList list) {
        ObjectNode o = parent.putObject(field);
        list.amounts().forEach((k, v) -> o.put(k, Quantity.format(v)));
    }

    /** The {@code taints} list of a node (or node shape). */
    static List<Taint> taints(JsonNode owner) {
        List<Taint> out = new ArrayList<>();
        owner.path("taints")
                .forEach(t -> out.add(new Taint(
                        Fields.text(t, "key"), Fields.textOr(t, "value", ""), Fields.textOr(t, "effect", ""))));
        return out;
    }

    static void taints(ObjectNode parent, String field, List<Taint> taints) {
        ArrayNode list = parent.putArray(field);
        taints.forEach(t ->
                list.addObject().put("key", t.key()).put("value", t.value()).put("effect", t.effect()));
    }

    static void requireSchema(JsonNode n, String type) {
        if (!n.isObject()) {
            throw new Bad("not a JSON object");
        }
        long schema = number(n, "schema");
        if (schema < 1 || schema > Wire.SCHEMA) {
            throw new Bad("schema " + schema + " is not supported (this build reads schema 1 to " + Wire.SCHEMA + ")");
        }
        String actual = text(n, "type");
        if (!actual.equals(type)) {
            throw new Bad("expected a '" + type + "' record, found '" + actual + "'");
        }
    }
}
