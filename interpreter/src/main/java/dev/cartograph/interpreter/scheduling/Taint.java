package dev.cartograph.interpreter.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Set;

/**
 * A node taint: key, value ({@code ""} when it has none) and effect. Immutable; thread-safe.
 *
 * @param effect NoSchedule, PreferNoSchedule or NoExecute as the API server validated it; kept as
 *               text so a node summary with an effect newer than this build still decodes
 */
public record Taint(String key, String value, String effect) {
    public static final String NO_SCHEDULE = "NoSchedule";
    public static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";
    public static final String NO_EXECUTE = "NoExecute";
    /** The effects Kubernetes accepts. */
    public static final Set<String> EFFECTS = Set.of(NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE);

    public Taint {
        Objects.requireNonNull(key, "taint key");
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /** A taint as a node's {@code spec.taints[]} holds it; missing fields read as empty. */
    public static Taint of(JsonNode taint) {
        return new Taint(
                taint.path("key").asText(""),
                taint.path("value").asText(""),
                taint.path("effect").asText(""));
    }

    /** Only these effects keep a new pod off a node; PreferNoSchedule is a preference. */
    public boolean repels() {
        return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
    }

    /** As kubectl writes it: {@code key[=value]:effect}. */
    @Override
    public String toString() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}
