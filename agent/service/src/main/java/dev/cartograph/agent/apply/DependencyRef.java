package dev.cartograph.agent.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A dependency as the member names it: its kind (all {@code v1}), namespace and name. Immutable.
 */
public record DependencyRef(String kind, String namespace, String name) {
    public DependencyRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    public static DependencyRef of(JsonNode object) {
        JsonNode meta = object.path("metadata");
        return new DependencyRef(
                object.path("kind").asText(),
                meta.path("namespace").asText(),
                meta.path("name").asText());
    }

    /** {@code Kind namespace/name}: how it is named in logs and reasons (never its data). */
    @Override
    public String toString() {
        return kind + " " + namespace + "/" + name;
    }
}
