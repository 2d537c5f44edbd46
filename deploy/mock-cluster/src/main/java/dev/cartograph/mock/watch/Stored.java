package dev.cartograph.mock.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.Objects;

/**
 * An object as the CRUD store holds it: its key (api, version, plural, namespace, name, labels:
 * what the store's own list queries match against) and its JSON text (the store's very string, so
 * keeping a change costs nothing while the object is current). Immutable; thread-safe.
 */
public record Stored(AttributeSet key, String json) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public Stored {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(json, "json");
    }

    /** The object, parsed anew on every call (the caller owns the tree). */
    public JsonNode object() {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "the CRUD store holds unreadable JSON (a mock bug; retry will not help)", e);
        }
    }

    /** {@code metadata.resourceVersion} as a number; 0 when absent or not a number. */
    public long resourceVersion() {
        try {
            return Long.parseLong(
                    object().path("metadata").path("resourceVersion").asText(""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
