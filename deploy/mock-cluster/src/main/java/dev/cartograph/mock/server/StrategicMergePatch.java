package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An approximation of Kubernetes strategic merge patch, enough for {@code kubectl apply} on built-in
 * kinds (the fabric8 CRUD mock rejects the content type with 415). Objects merge like JSON merge
 * patch; lists of objects merge by key for the well-known fields below (containers by name, ports
 * by containerPort, ...), honouring {@code $patch: delete}, {@code $setElementOrder/} and
 * {@code $deleteFromPrimitiveList/}; every other list is replaced. A real API server takes the
 * merge keys from the Go types, so exotic fields can differ. Pure; thread-safe.
 */
final class StrategicMergePatch {
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"),
            Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"),
            Map.entry("env", "name"),
            Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"),
            Map.entry("volumeDevices", "devicePath"),
            Map.entry("ports", "containerPort"),
            Map.entry("imagePullSecrets", "name"),
            Map.entry("conditions", "type"),
            Map.entry("ownerReferences", "uid"),
            Map.entry("hostAliases", "ip"),
            Map.entry("resourceClaims", "name"),
            Map.entry("schedulingGates", "name"));
    private static final String SET_ORDER = "$setElementOrder/";
    private static final String DELETE_PRIMITIVES = "$deleteFromPrimitiveList/";

    private StrategicMergePatch() {}

    /** {@code target} with {@code patch} applied; {@code target} is not modified. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject() || !target.isObject()) {
            return patch.deepCopy();
        }
        return merge((ObjectNode) target.deepCopy(), (ObjectNode) patch);
    }

    private static ObjectNode merge(ObjectNode target, ObjectNode patch) {
        if ("replace".equals(patch.path("$patch").asText())) {
            ObjectNode replaced = patch.deepCopy();
            replaced.remove("$patch");
            return replaced;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.startsWith(DELETE_PRIMITIVES)) {
                deletePrimitives(target, key.substring(DELETE_PRIMITIVES.length()), value);
            } else if (key.startsWith("$")) {
                continue;
            } else if (value.isNull()) {
                target.remove(key);
            } else if (value.isObject() && target.path(key).isObject()) {
                target.set(key, merge((ObjectNode) target.get(key), (ObjectNode) value));
            } else if (value.isArray() && target.path(key).isArray() && MERGE_KEYS.containsKey(key)) {
                target.set(
                        key,
                        mergeList(
                                (ArrayNode) target.get(key),
                                (ArrayNode) value,
                                MERGE_KEYS.get(key),
                                Optional.ofNullable(patch.get(SET_ORDER + key))));
            } else {
                target.set(key, withoutDirectives(value));
            }
        }
        return target;
    }

    private static ArrayNode mergeList(ArrayNode target, ArrayNode patch, String mergeKey, Optional<JsonNode> order) {
        List<JsonNode> items = new ArrayList<>();
        target.forEach(items::add);
        for (JsonNode p : patch) {
            if (!p.isObject() || !p.has(mergeKey)) {
                return (ArrayNode) withoutDirectives(patch);
            }
            int at = indexOf(items, mergeKey, p.get(mergeKey));
            boolean delete = "delete".equals(p.path("$patch").asText());
            if (delete && at >= 0) {
                items.remove(at);
            } else if (!delete && at >= 0) {
                items.set(at, merge((ObjectNode) items.get(at).deepCopy(), (ObjectNode) p));
            } else if (!delete) {
                items.add(withoutDirectives(p));
            }
        }
        order.filter(JsonNode::isArray).ifPresent(o -> sortBy(items, o, mergeKey));
        ArrayNode merged = JsonNodeFactory.instance.arrayNode();
        items.forEach(merged::add);
        return merged;
    }

    private static void sortBy(List<JsonNode> items, JsonNode order, String mergeKey) {
        List<JsonNode> keys = new ArrayList<>();
        order.forEach(o -> keys.add(o.get(mergeKey)));
        items.sort((a, b) -> Integer.compare(rank(keys, a.get(mergeKey)), rank(keys, b.get(mergeKey))));
    }

    private static int rank(List<JsonNode> keys, JsonNode key) {
        int i = keys.indexOf(key);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    private static int indexOf(List<JsonNode> items, String mergeKey, JsonNode key) {
        for (int i = 0; i < items.size(); i++) {
            if (key.equals(items.get(i).get(mergeKey))) {
                return i;
            }
        }
        return -1;
    }

    private static void deletePrimitives(ObjectNode target, String field, JsonNode values) {
        if (!target.path(field).isArray() || !values.isArray()) {
            return;
        }
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        target.get(field).forEach(v -> {
            boolean listed = false;
            for (JsonNode d : values) {
                listed |= d.equals(v);
            }
            if (!listed) {
                kept.add(v);
            }
        });
        target.set(field, kept);
    }

    /** A copy without {@code $} directive keys at any depth. */
    private static JsonNode withoutDirectives(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.properties().forEach(e -> {
                if (!e.getKey().startsWith("$")) {
                    copy.set(e.getKey(), withoutDirectives(e.getValue()));
                }
            });
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(v -> copy.add(withoutDirectives(v)));
            return copy;
        }
        return node;
    }
}
