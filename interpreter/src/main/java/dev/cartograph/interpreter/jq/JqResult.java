package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * What one evaluation produced: every emitted value in order, or the error that stopped it.
 * Immutable (the values are the evaluator's own copies and must not be modified).
 */
public record JqResult(List<JsonNode> values, Optional<String> error) {

    public JqResult {
        values = List.copyOf(values);
        error = error == null ? Optional.empty() : error;
    }

    static JqResult ok(List<JsonNode> values) {
        return new JqResult(values, Optional.empty());
    }

    static JqResult failed(String error) {
        return new JqResult(List.of(), Optional.of(error));
    }

    public boolean ok() {
        return error.isEmpty();
    }

    /** The first value, or empty when the expression failed or produced nothing. */
    public Optional<JsonNode> first() {
        return ok() && !values.isEmpty() ? Optional.of(values.get(0)) : Optional.empty();
    }
}
