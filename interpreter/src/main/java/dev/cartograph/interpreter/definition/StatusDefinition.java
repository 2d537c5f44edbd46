package dev.cartograph.interpreter.definition;

import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.view.Phase;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code statusDefinition}: how the root object's status maps onto {@link Phase}s. Immutable. */
public record StatusDefinition(
        Optional<JqExpression> phasePath, Optional<Conditions> conditions, Map<Phase, List<Matcher>> mappings) {

    public StatusDefinition {
        mappings = Map.copyOf(mappings);
    }

    /** {@code conditionsDefinition}, with the field names defaulted to type/status/message/reason. */
    public record Conditions(
            JqExpression path, String typeField, String statusField, String messageField, String reasonField) {}

    /**
     * One matcher of a status mapping: every part that is set must hold (an empty matcher always
     * holds, as in Workload Map).
     */
    public record Matcher(
            Optional<String> byPhase, List<ConditionMatch> byConditions, Optional<ExpressionMatch> byExpression) {
        public Matcher {
            byConditions = List.copyOf(byConditions);
        }
    }

    /** A condition that must be present with this type, and status and reason when given. */
    public record ConditionMatch(String type, Optional<String> status, Optional<String> reason) {}

    /** {@code (expression) | tostring} of the first result must equal {@code expectedResult}. */
    public record ExpressionMatch(JqExpression expression, String expectedResult) {}
}
