package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What writing at a path costs (assignment, {@code setpath}, {@code delpaths}): jackson-jq copies
 * every array and object on the way, and pads an array with nulls up to a new index. Pure.
 */
final class Paths {
    private Paths() {}

    /**
     * Charges the copies a write at {@code path} (jq's form: an array of keys and indices) into
     * {@code root} makes, after checking that no index would grow an array past the element bound.
     * A path that is not an array is left to jackson-jq to reject.
     */
    static void charge(Budget budget, JsonNode root, JsonNode path) {
        if (!path.isArray()) {
            return;
        }
        int maxElements = budget.limits().maxElements();
        long elements = 0;
        JsonNode node = root;
        for (JsonNode step : path) {
            if (step.isNumber() && step.asDouble() >= maxElements) {
                budget.exceed("evaluation exceeded its allocation budget: array index " + step.asText()
                        + " would grow an array past " + maxElements + " elements");
            }
            elements += node == null ? 1 : Math.max(1, node.size());
            if (step.isNumber()) {
                elements += node == null ? Math.max(0, step.asLong()) : Math.max(0, step.asLong() - node.size());
                node = node == null ? null : node.get(step.asInt());
            } else {
                node = node == null ? null : node.get(step.asText());
            }
        }
        budget.steps(1);
        budget.allocated(elements * JqLimits.BYTES_PER_ELEMENT);
    }
}
