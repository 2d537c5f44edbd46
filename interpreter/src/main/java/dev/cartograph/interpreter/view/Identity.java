package dev.cartograph.interpreter.view;

import java.util.Optional;

/** Who an object is. Immutable. */
public record Identity(
        String apiVersion,
        String kind,
        String name,
        Optional<String> namespace,
        Optional<String> uid,
        Optional<java.time.Instant> creationTimestamp) {

    /** {@code Kind namespace/name}, as errors and logs name an object. */
    public String describe() {
        return kind + " " + namespace.map(ns -> ns + "/").orElse("") + (name.isEmpty() ? "(unnamed)" : name);
    }
}
