package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.jq.JqResult;
import java.util.List;
import java.util.Optional;

/**
 * Evaluates a component's paths against one object and lines their results up per instance,
 * recording what went wrong with the definition field that caused it. Not thread-safe: one per
 * resolution.
 */
final class Evaluations {
    private final JsonNode object;
    private final Findings findings;

    Evaluations(JsonNode object, Findings findings) {
        this.object = object;
        this.findings = findings;
    }

    /**
     * The results of an optional path, aligned to {@code instances}: exactly one per instance, or
     * none at all (absent everywhere). Any other count is a reported mismatch, and empty.
     */
    Optional<List<JsonNode>> aligned(Optional<JqExpression> path, int instances, String field) {
        if (path.isEmpty()) {
            return Optional.of(List.of());
        }
        JqResult result = path.get().evaluate(object);
        if (!result.ok()) {
            findings.error(
                    field,
                    "jq failed on this object: " + result.error().orElse("") + " (expression: "
                            + path.get().source() + ")");
            return Optional.empty();
        }
        List<JsonNode> values = result.values();
        if (values.isEmpty() || values.size() == instances) {
            return Optional.of(values);
        }
        findings.error(
                field,
                "yields " + values.size() + " values for " + instances + " instance" + (instances == 1 ? "" : "s")
                        + " (instance ids and paths are zipped by index)");
        return Optional.empty();
    }

    List<JsonNode> all(JqExpression path, String field) {
        JqResult result = path.evaluate(object);
        if (!result.ok()) {
            findings.error(
                    field,
                    "jq failed on this object: " + result.error().orElse("") + " (expression: " + path.source() + ")");
        }
        return result.values();
    }

    /**
     * Where in the object {@code path} found its value for instance {@code index} of
     * {@code instances}, as a field ({@code spec.replicatedJobs[0].replicas}); empty when the
     * expression is not a path or its paths do not line up with the instances.
     */
    Optional<String> objectPath(JqExpression path, int index, int instances) {
        JqResult paths = path.paths(object);
        if (!paths.ok()
                || paths.values().size() != instances
                || !paths.values().get(index).isArray()) {
            return Optional.empty();
        }
        return Optional.of(ObjectPaths.format(paths.values().get(index)));
    }

    /**
     * {@link #objectPath} for every instance at once (one evaluation): exactly {@code instances}
     * entries, each empty where the expression is not a path or its paths do not line up.
     */
    List<Optional<String>> objectPaths(JqExpression path, int instances) {
        JqResult paths = path.paths(object);
        boolean aligned = paths.ok() && paths.values().size() == instances;
        List<Optional<String>> out = new java.util.ArrayList<>(instances);
        for (int i = 0; i < instances; i++) {
            JsonNode p = aligned ? paths.values().get(i) : null;
            out.add(p != null && p.isArray() ? Optional.of(ObjectPaths.format(p)) : Optional.empty());
        }
        return out;
    }

    static JsonNode at(List<JsonNode> values, int index) {
        return values.isEmpty() ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : values.get(index);
    }
}
