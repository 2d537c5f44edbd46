package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.view.Phase;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads {@code statusDefinition} and {@code suspendDefinition}. Pure. */
final class StatusParser {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Keys of older definitions, read as {@code initializing}. */
    private static final List<String> LEGACY_INITIALIZING = List.of("pending", "progressing");

    private StatusParser() {}

    static Optional<StatusDefinition> status(JsonNode node, String path, Reader r) {
        Optional<JqExpression> phasePath = r.object(node, "phaseDefinition", path)
                .flatMap(p -> {
                    if (!p.has("path")) {
                        r.error(path + ".phaseDefinition.path", "is required");
                    }
                    return r.jq(p, "path", path + ".phaseDefinition");
                });
        Optional<StatusDefinition.Conditions> conditions = r.object(node, "conditionsDefinition", path)
                .flatMap(c -> conditions(c, path + ".conditionsDefinition", r));
        Map<Phase, List<StatusDefinition.Matcher>> mappings = new EnumMap<>(Phase.class);
        String at = path + ".statusMappings";
        Optional<JsonNode> mappingNode = r.object(node, "statusMappings", path);
        if (mappingNode.isEmpty()) {
            r.error(at, "is required");
        }
        mappingNode.ifPresent(m -> m.fields().forEachRemaining(e -> {
            String key = e.getKey();
            Optional<Phase> phase = Phase.parse(key).filter(p -> p != Phase.UNDEFINED);
            if (phase.isEmpty() && LEGACY_INITIALIZING.contains(key)) {
                r.warn(at + "." + key, "is an older name; read as 'initializing'");
                phase = Optional.of(Phase.INITIALIZING);
            }
            if (phase.isEmpty()) {
                r.error(
                        at + "." + key,
                        "is not a status; use one of initializing, running, completed, failed, "
                                + "degraded, suspended, suspending, resuming");
                return;
            }
            List<StatusDefinition.Matcher> matchers =
                    matchers(m, key, at, r, node.has("phaseDefinition"), node.has("conditionsDefinition"));
            mappings.merge(phase.get(), matchers, (a, b) -> {
                List<StatusDefinition.Matcher> all = new ArrayList<>(a);
                all.addAll(b);
                return all;
            });
        }));
        return Optional.of(new StatusDefinition(phasePath, conditions, mappings));
    }

    private static Optional<StatusDefinition.Conditions> conditions(JsonNode c, String path, Reader r) {
        if (!c.has("path")) {
            r.error(path + ".path", "is required");
        }
        return r.jq(c, "path", path)
                .map(p -> new StatusDefinition.Conditions(
                        p,
                        r.string(c, "typeFieldName", path).orElse("type"),
                        r.string(c, "statusFieldName", path).orElse("status"),
                        r.string(c, "messageFieldName", path).orElse("message"),
                        r.string(c, "reasonFieldName", path).orElse("reason")));
    }

    private static List<StatusDefinition.Matcher> matchers(
            JsonNode mappings, String key, String at, Reader r, boolean hasPhase, boolean hasConditions) {
        List<StatusDefinition.Matcher> out = new ArrayList<>();
        List<JsonNode> items = r.array(mappings, key, at);
        for (int i = 0; i < items.size(); i++) {
            String path = at + "." + key + "[" + i + "]";
            JsonNode m = items.get(i);
            Optional<String> byPhase = r.string(m, "byPhase", path);
            if (byPhase.isPresent() && !hasPhase) {
                r.error(path + ".byPhase", "needs statusDefinition.phaseDefinition");
            }
            List<StatusDefinition.ConditionMatch> byConditions = new ArrayList<>();
            List<JsonNode> conds = r.array(m, "byConditions", path);
            if (!conds.isEmpty() && !hasConditions) {
                r.error(path + ".byConditions", "needs statusDefinition.conditionsDefinition");
            }
            for (int j = 0; j < conds.size(); j++) {
                String cp = path + ".byConditions[" + j + "]";
                JsonNode cond = conds.get(j);
                r.requiredString(cond, "type", cp)
                        .ifPresent(type -> byConditions.add(new StatusDefinition.ConditionMatch(
                                type, r.string(cond, "status", cp), r.string(cond, "reason", cp))));
            }
            Optional<StatusDefinition.ExpressionMatch> byExpression =
                    r.object(m, "byExpression", path).flatMap(e -> expression(e, path + ".byExpression", r));
            if (byPhase.isEmpty() && conds.isEmpty() && !m.has("byExpression")) {
                r.warn(path, "has no byPhase, byConditions or byExpression, so it always matches");
            }
            out.add(new StatusDefinition.Matcher(byPhase, byConditions, byExpression));
        }
        return out;
    }

    private static Optional<StatusDefinition.ExpressionMatch> expression(JsonNode e, String path, Reader r) {
        Optional<String> source = r.requiredString(e, "expression", path);
        Optional<String> expected = r.requiredString(e, "expectedResult", path);
        if (source.isEmpty() || expected.isEmpty()) {
            return Optional.empty();
        }
        // compile as written first, so an error points at the user's own text
        return r.compile(source.get(), path + ".expression")
                .flatMap(ok -> r.compile("(" + source.get() + ") | tostring", path + ".expression"))
                .map(compiled -> new StatusDefinition.ExpressionMatch(compiled, expected.get()));
    }

    static Optional<SuspendDefinition> suspend(JsonNode node, String path, Reader r) {
        List<SuspendDefinition.Action> suspend = actions(node, "suspendActions", path, r);
        List<SuspendDefinition.Action> resume = actions(node, "resumeActions", path, r);
        return Optional.of(new SuspendDefinition(suspend, resume));
    }

    private static List<SuspendDefinition.Action> actions(JsonNode node, String key, String path, Reader r) {
        if (!node.has(key)) {
            r.error(path + "." + key, "is required");
        }
        List<SuspendDefinition.Action> out = new ArrayList<>();
        List<JsonNode> items = r.array(node, key, path);
        for (int i = 0; i < items.size(); i++) {
            String at = path + "." + key + "[" + i + "]";
            Optional<JqExpression> target = r.jq(items.get(i), "path", at);
            Optional<String> text = r.requiredString(items.get(i), "value", at);
            if (!items.get(i).has("path")) {
                r.error(at + ".path", "is required");
            }
            if (target.isPresent() && text.isPresent()) {
                try {
                    out.add(new SuspendDefinition.Action(target.get(), JSON.readTree(text.get())));
                } catch (JsonProcessingException e) {
                    r.error(
                            at + ".value",
                            "must be JSON text (e.g. \"true\" or \"{\\\"a\\\":1}\"): " + e.getOriginalMessage());
                }
            }
        }
        return out;
    }
}
