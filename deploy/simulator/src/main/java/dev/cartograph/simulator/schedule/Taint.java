package dev.cartograph.simulator.schedule;

import java.util.Objects;

/** A node taint; {@code value} is empty when the taint has none. Immutable. */
public record Taint(String key, String value, String effect) {
    public static final String NO_SCHEDULE = "NoSchedule";
    public static final String NO_EXECUTE = "NoExecute";

    public Taint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(effect, "effect");
    }

    /** Only these effects keep a new pod off a node; PreferNoSchedule is a preference. */
    public boolean repels() {
        return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
    }

    @Override
    public String toString() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}
