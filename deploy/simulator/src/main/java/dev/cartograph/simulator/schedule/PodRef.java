package dev.cartograph.simulator.schedule;

import java.util.Objects;

/** A pod's identity in one cluster. Immutable. */
public record PodRef(String namespace, String name) {
    public PodRef {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
