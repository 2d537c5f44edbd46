package dev.cartograph.mock.fleet;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** A node taint as a fleet profile declares it. Immutable. */
public record Taint(String key, Optional<String> value, String effect) {
    /** The effects Kubernetes accepts. */
    public static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    public Taint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (!EFFECTS.contains(effect)) {
            throw new IllegalArgumentException("effect must be one of " + EFFECTS + ", was " + effect);
        }
    }
}
