package dev.cartograph.interpreter.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One term of a pod's required node affinity ({@code nodeSelectorTerms[]}): every requirement of the
 * term must hold. As in Kubernetes, a term with no requirements matches no node, and
 * {@code matchFields} can name only {@code metadata.name}. Immutable; thread-safe.
 */
public record NodeSelectorTerm(List<Requirement> matchExpressions, List<Requirement> matchFields) {
    /** The only field {@code matchFields} may select on. */
    public static final String NODE_NAME_FIELD = "metadata.name";

    public NodeSelectorTerm {
        matchExpressions = List.copyOf(matchExpressions);
        matchFields = List.copyOf(matchFields);
    }

    /** A term as a pod spec holds it; requirements that are not JSON objects are kept as ones that never hold. */
    public static NodeSelectorTerm of(JsonNode term) {
        return new NodeSelectorTerm(
                requirements(term.path("matchExpressions")), requirements(term.path("matchFields")));
    }

    private static List<Requirement> requirements(JsonNode array) {
        List<Requirement> out = new ArrayList<>();
        array.forEach(r -> out.add(Requirement.of(r)));
        return out;
    }

    /** Whether a node with these labels and this name satisfies the term. */
    public boolean matches(Map<String, String> labels, String nodeName) {
        if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
            return false;
        }
        Map<String, String> fields = Map.of(NODE_NAME_FIELD, nodeName);
        return matchExpressions.stream().allMatch(r -> r.matches(labels))
                && matchFields.stream().allMatch(r -> NODE_NAME_FIELD.equals(r.key()) && r.matches(fields));
    }

    /**
     * A node selector requirement: {@code In}, {@code NotIn} (holds when the key is absent),
     * {@code Exists}, {@code DoesNotExist}, {@code Gt} and {@code Lt} (the value and the single
     * operand compared as integers; not integers: does not hold). An unknown operator never holds.
     */
    public record Requirement(String key, String operator, List<String> values) {
        public Requirement {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(operator, "operator");
            values = List.copyOf(values);
        }

        static Requirement of(JsonNode r) {
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            return new Requirement(r.path("key").asText(""), r.path("operator").asText(""), values);
        }

        public boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                case "Gt" -> value != null && values.size() == 1 && compare(value, values.get(0)) > 0;
                case "Lt" -> value != null && values.size() == 1 && compare(value, values.get(0)) < 0;
                default -> false;
            };
        }

        /** Integer comparison; 0 (neither holds) when either side is not an integer. */
        private static int compare(String a, String b) {
            try {
                return Long.compare(Long.parseLong(a), Long.parseLong(b));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }
}
