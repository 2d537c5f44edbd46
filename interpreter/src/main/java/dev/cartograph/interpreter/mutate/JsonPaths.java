package dev.cartograph.interpreter.mutate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Reads and writes a JSON tree at a jq path ({@code ["spec", "replicatedJobs", 0, "template"]}),
 * creating missing objects on the way as jq's assignment does. Mutates the tree it is given;
 * callers pass their own copy.
 */
final class JsonPaths {
    private JsonPaths() {}

    /** The node at {@code path}, if every step exists. */
    static Optional<JsonNode> get(JsonNode root, JsonNode path) {
        JsonNode current = root;
        for (JsonNode step : path) {
            current = step.isNumber() ? current.path(step.asInt()) : current.path(step.asText());
            if (current.isMissingNode()) {
                return Optional.empty();
            }
        }
        return Optional.of(current);
    }

    /** Sets {@code value} at {@code path}; false when a step goes through a scalar or past an array's end. */
    static boolean set(JsonNode root, JsonNode path, JsonNode value) {
        if (path.size() == 0) {
            return false;
        }
        JsonNode parent = root;
        for (int i = 0; i < path.size() - 1; i++) {
            JsonNode step = path.get(i);
            JsonNode next = step.isNumber() ? parent.path(step.asInt()) : parent.path(step.asText());
            if (next.isMissingNode() || next.isNull()) {
                if (!(parent instanceof ObjectNode obj) || step.isNumber()) {
                    return false;
                }
                next = path.get(i + 1).isNumber() ? obj.putArray(step.asText()) : obj.putObject(step.asText());
            }
            parent = next;
        }
        JsonNode last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode obj && !last.isNumber()) {
            obj.set(last.asText(), value);
            return true;
        }
        if (parent instanceof ArrayNode arr && last.isNumber() && last.asInt() >= 0 && last.asInt() <= arr.size()) {
            if (last.asInt() == arr.size()) {
                arr.add(value);
            } else {
                arr.set(last.asInt(), value);
            }
            return true;
        }
        return false;
    }

    /** The object at {@code path}, created empty when absent (null when something else is there). */
    static ObjectNode objectAt(JsonNode root, JsonNode path) {
        Optional<JsonNode> existing = get(root, path);
        if (existing.isPresent() && existing.get() instanceof ObjectNode obj) {
            return obj;
        }
        if (existing.isPresent() && !existing.get().isNull()) {
            return null;
        }
        ObjectNode created = JsonNodeFactory.instance.objectNode();
        return set(root, path, created) ? created : null;
    }

    static JsonNode child(JsonNode path, String... keys) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        path.forEach(out::add);
        for (String key : keys) {
            out.add(key);
        }
        return out;
    }
}
