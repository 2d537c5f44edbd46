package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.JqExpression;
import java.util.List;

/** {@code suspendDefinition}: assignments that suspend and resume the workload. Immutable. */
public record SuspendDefinition(List<Action> suspendActions, List<Action> resumeActions) {

    public SuspendDefinition {
        suspendActions = List.copyOf(suspendActions);
        resumeActions = List.copyOf(resumeActions);
    }

    /** Set every place {@code path} selects to {@code value} (parsed from the definition's JSON text). */
    public record Action(JqExpression path, JsonNode value) {}
}
