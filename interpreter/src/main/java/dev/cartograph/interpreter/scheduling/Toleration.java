package dev.cartograph.interpreter.scheduling;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A pod toleration, matched exactly as Kubernetes does ({@code Toleration.ToleratesTaint}): an empty
 * effect matches every effect, an empty key every key; {@code Exists} matches any value, {@code Equal}
 * (also when the operator is empty) needs the same value, and any other operator matches nothing.
 * {@code tolerationSeconds} does not matter for whether a pod may start, so it is not kept. Immutable;
 * thread-safe.
 */
public record Toleration(String key, String operator, String value, String effect) {
    public static final String EXISTS = "Exists";
    public static final String EQUAL = "Equal";

    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null || operator.isEmpty() ? EQUAL : operator;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /** A toleration as a pod spec's {@code tolerations[]} holds it; missing fields read as empty. */
    public static Toleration of(JsonNode toleration) {
        return new Toleration(
                text(toleration, "key"),
                text(toleration, "operator"),
                text(toleration, "value"),
                text(toleration, "effect"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isValueNode() && !v.isNull() ? v.asText() : "";
    }

    public boolean tolerates(Taint taint) {
        if (!effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        if (!key.isEmpty() && !key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case EXISTS -> true;
            case EQUAL -> value.equals(taint.value());
            default -> false;
        };
    }
}
