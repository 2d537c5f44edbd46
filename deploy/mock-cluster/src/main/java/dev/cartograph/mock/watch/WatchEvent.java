package dev.cartograph.mock.watch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** One event of a watch stream, before rendering ({@code {"type": ..., "object": ...}} on the wire). Immutable by contract. */
public record WatchEvent(Type type, JsonNode object) {
    /** The event types of {@code meta/v1 WatchEvent} that the mock sends. */
    public enum Type {
        ADDED,
        MODIFIED,
        DELETED,
        ERROR
    }

    public WatchEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(object, "object");
    }
}
