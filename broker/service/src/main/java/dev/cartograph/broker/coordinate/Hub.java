package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * What the coordinator writes back on the hub objects users submitted (keys: {@link dev.cartograph.protocol.MetadataKeys}). Calls return at once; an
 * implementation writes in order on its own thread, retries, and logs what still fails (a hub
 * write never stops placement).
 */
public interface Hub {
    void addFinalizer(JsonNode object);

    void removeFinalizer(JsonNode object);

    /** Sets these labels and annotations (an empty value removes one). */
    void mark(JsonNode object, Map<String, String> labels, Map<String, String> annotations);

    /** Replaces the object's {@code .status} with the member copy's. */
    void status(JsonNode object, JsonNode status);

    /** A Kubernetes Event on the object ({@code type} Normal or Warning). */
    void event(JsonNode object, String type, String reason, String message);
}
