package dev.cartograph.simulator.schedule;

import java.util.Objects;

/**
 * A pod toleration, matched as Kubernetes does: an empty key with {@code Exists} tolerates every
 * taint, an empty effect every effect, {@code Equal} (the default) needs equal values. Immutable.
 */
public record Toleration(String key, String operator, String value, String effect) {
    public Toleration {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(effect, "effect");
    }

    public boolean tolerates(Taint taint) {
        if (!effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        if ("Exists".equals(operator)) {
            return key.isEmpty() || key.equals(taint.key());
        }
        return key.equals(taint.key()) && value.equals(taint.value());
    }
}
