package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.StatusDefinition;
import dev.cartograph.interpreter.definition.StatusDefinition.ConditionMatch;
import dev.cartograph.interpreter.definition.StatusDefinition.Matcher;
import dev.cartograph.interpreter.jq.JqResult;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.StatusView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps an object's status onto {@link Phase}s. Every mapping is evaluated; a mapping holds when any
 * of its matchers holds; a matcher holds when all of its parts hold. An expression that fails on
 * the object counts as not holding and is reported in {@link StatusView#errors()}. Pure.
 */
public final class StatusEvaluator {
    private StatusEvaluator() {}

    public static StatusView evaluate(StatusDefinition definition, JsonNode object) {
        List<String> errors = new ArrayList<>();
        Optional<String> rawPhase = definition.phasePath().flatMap(p -> {
            JqResult r = p.evaluate(object);
            r.error().ifPresent(e -> errors.add("phaseDefinition.path: " + e));
            return r.first().filter(v -> !v.isNull()).map(JsonNode::asText);
        });
        Map<String, StatusView.Condition> conditions =
                definition.conditions().map(c -> conditions(c, object, errors)).orElse(Map.of());
        List<Phase> matched = new ArrayList<>();
        for (Phase phase : Phase.values()) {
            List<Matcher> matchers = definition.mappings().getOrDefault(phase, List.of());
            for (Matcher m : matchers) {
                if (holds(m, rawPhase, conditions, object, phase, errors)) {
                    matched.add(phase);
                    break;
                }
            }
        }
        if (matched.isEmpty()) {
            matched.add(Phase.UNDEFINED);
        }
        return new StatusView(Phase.choose(matched), matched, rawPhase, List.copyOf(conditions.values()), errors);
    }

    private static boolean holds(
            Matcher m,
            Optional<String> rawPhase,
            Map<String, StatusView.Condition> conditions,
            JsonNode object,
            Phase phase,
            List<String> errors) {
        if (m.byPhase().isPresent() && !m.byPhase().equals(rawPhase)) {
            return false;
        }
        for (ConditionMatch want : m.byConditions()) {
            StatusView.Condition have = conditions.get(want.type());
            if (have == null
                    || want.status().isPresent() && !want.status().equals(have.status())
                    || want.reason().isPresent() && !want.reason().equals(have.reason())) {
                return false;
            }
        }
        if (m.byExpression().isPresent()) {
            StatusDefinition.ExpressionMatch e = m.byExpression().get();
            JqResult r = e.expression().evaluate(object);
            if (!r.ok()) {
                errors.add(phase.mappingKey() + ": " + r.error().orElse("") + " (expression: "
                        + e.expression().source() + ")");
                return false;
            }
            return r.first()
                    .map(JsonNode::asText)
                    .filter(e.expectedResult()::equals)
                    .isPresent();
        }
        return true;
    }

    /** Conditions by type; a later duplicate type replaces an earlier one. */
    private static Map<String, StatusView.Condition> conditions(
            StatusDefinition.Conditions def, JsonNode object, List<String> errors) {
        JqResult r = def.path().evaluate(object);
        r.error().ifPresent(e -> errors.add("conditionsDefinition.path: " + e));
        List<JsonNode> items = new ArrayList<>();
        for (JsonNode v : r.values()) {
            if (v.isArray()) {
                v.forEach(items::add);
            } else if (v.isObject()) {
                items.add(v);
            }
        }
        Map<String, StatusView.Condition> byType = new LinkedHashMap<>();
        for (JsonNode c : items) {
            Optional<String> type = text(c, def.typeField());
            type.ifPresent(t -> byType.put(
                    t,
                    new StatusView.Condition(
                            t, text(c, def.statusField()), text(c, def.reasonField()), text(c, def.messageField()))));
        }
        return byType;
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? Optional.empty() : Optional.of(v.asText());
    }
}
