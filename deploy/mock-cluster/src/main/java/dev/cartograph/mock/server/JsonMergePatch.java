package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * JSON merge patch as RFC 7386 defines it and the API server applies it: objects merge key by key, {@code null}
 * removes a key, anything else — lists included — replaces what is there. Pure; thread-safe.
 */
final class JsonMergePatch {
    private JsonMergePatch() {}

    /** {@code target} with {@code patch} applied; neither is modified. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode out = target.isObject() ? ((ObjectNode) target).deepCopy() : ((ObjectNode) patch).objectNode();
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getValue().isNull()) {
                out.remove(e.getKey());
            } else {
                out.set(e.getKey(), apply(out.path(e.getKey()), e.getValue()));
            }
        }
        return out;
    }
}
