package dev.cartograph.protocol;

import java.util.Objects;

/** A node taint: key, optional value, and effect (NoSchedule, PreferNoSchedule, NoExecute). Immutable. */
public record Taint(String key, String value, String effect) {
    public Taint {
        Objects.requireNonNull(key, "taint key");
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }
}
