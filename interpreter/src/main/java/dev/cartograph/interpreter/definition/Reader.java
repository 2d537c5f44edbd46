package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.Jq;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.problem.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads fields of one definition document, remembering every problem with its field path. Not
 * thread-safe: one per document being parsed.
 */
final class Reader {
    private final String subject;
    private final Jq jq;
    private final List<Problem> problems = new ArrayList<>();

    Reader(String subject, Jq jq) {
        this.subject = subject;
        this.jq = jq;
    }

    List<Problem> problems() {
        return problems;
    }

    boolean hasErrors() {
        return problems.stream().anyMatch(Problem::isError);
    }

    void error(String field, String message) {
        problems.add(Problem.error(subject, field, message));
    }

    void warn(String field, String message) {
        problems.add(Problem.warning(subject, field, message));
    }

    /** A string field; a present non-string is an error. */
    Optional<String> string(JsonNode parent, String key, String path) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            error(
                    path + "." + key,
                    "must be a string, found " + node.getNodeType().name().toLowerCase());
            return Optional.empty();
        }
        return Optional.of(node.textValue());
    }

    Optional<String> requiredString(JsonNode parent, String key, String path) {
        Optional<String> value = string(parent, key, path);
        if (value.isEmpty() && !parent.has(key)) {
            error(path + "." + key, "is required");
        }
        return value;
    }

    /** An object field; a present non-object is an error. */
    Optional<JsonNode> object(JsonNode parent, String key, String path) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            error(path + "." + key, "must be an object");
            return Optional.empty();
        }
        return Optional.of(node);
    }

    /** An array field (empty when absent); a present non-array is an error. */
    List<JsonNode> array(JsonNode parent, String key, String path) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            error(path + "." + key, "must be a list");
            return List.of();
        }
        List<JsonNode> items = new ArrayList<>();
        node.forEach(items::add);
        return items;
    }

    /** A jq expression field, compiled; a compile error is reported at its path. */
    Optional<JqExpression> jq(JsonNode parent, String key, String path) {
        return string(parent, key, path).flatMap(source -> compile(source, path + "." + key));
    }

    Optional<JqExpression> compile(String source, String field) {
        Jq.Compiled compiled = jq.compile(source);
        if (compiled instanceof Jq.Compiled.Ok ok) {
            return Optional.of(ok.expression());
        }
        error(
                field,
                "jq expression does not compile: " + ((Jq.Compiled.Failed) compiled).reason() + " (expression: "
                        + source + ")");
        return Optional.empty();
    }
}
