package dev.cartograph.mock.selector;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A field selector ({@code involvedObject.name=x,status.phase!=Running}): every requirement must
 * hold (comma is AND). Unlike a real API server, which accepts only the few fields each kind
 * indexes, any dotted path is allowed here: it is read from the object, and a missing field reads
 * as the empty string (so {@code involvedObject.namespace=} matches a cluster-scoped reference).
 * Backslash escapes {@code ,}, {@code =}, {@code !} and itself in values, as in Kubernetes.
 * Immutable; thread-safe.
 *
 * <pre>{@code
 * FieldSelector.Parsed parsed = FieldSelector.parse("involvedObject.kind=PyTorchJob,involvedObject.name=bert");
 * if (parsed instanceof FieldSelector.Valid valid) {
 *     items.stream().filter(valid.selector()::matches)...
 * }
 * }</pre>
 */
public record FieldSelector(List<Requirement> requirements) {
    /** {@code path OP value}: {@code =}/{@code ==} when {@code equal}, {@code !=} otherwise. */
    public record Requirement(String path, boolean equal, String value) {
        public Requirement {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(value, "value");
        }

        boolean matches(JsonNode object) {
            return value.equals(read(object, path)) == equal;
        }
    }

    /** The outcome of parsing a selector's text. */
    public sealed interface Parsed permits Valid, Invalid {}

    public record Valid(FieldSelector selector) implements Parsed {}

    /** @param reason what is wrong, in the API server's words where it has some */
    public record Invalid(String reason) implements Parsed {}

    public FieldSelector {
        requirements = List.copyOf(requirements);
    }

    /** Parses {@code text}; blank text selects everything. */
    public static Parsed parse(String text) {
        List<Requirement> requirements = new ArrayList<>();
        for (String term : splitUnescaped(text)) {
            if (term.isBlank()) {
                continue;
            }
            int[] op = operator(term);
            if (op[0] < 0) {
                return new Invalid("invalid selector: '" + text + "'; can't understand '" + term + "'");
            }
            String path = term.substring(0, op[0]).strip();
            if (path.isEmpty()) {
                return new Invalid("invalid selector: '" + text + "'; a requirement needs a field: '" + term + "'");
            }
            boolean equal = term.charAt(op[0]) != '!';
            requirements.add(new Requirement(path, equal, unescape(term.substring(op[0] + op[1]))));
        }
        return new Valid(new FieldSelector(requirements));
    }

    /** Whether every requirement holds for {@code object}. */
    public boolean matches(JsonNode object) {
        return requirements.stream().allMatch(r -> r.matches(object));
    }

    /** The text at a dotted path; empty when missing, null or not a scalar. */
    static String read(JsonNode object, String path) {
        JsonNode node = object;
        for (String key : path.split("\\.")) {
            node = node.path(key);
        }
        return node.isValueNode() && !node.isNull() ? node.asText() : "";
    }

    /** {index of the operator, its length}, index -1 when there is none; escaped characters do not count. */
    private static int[] operator(String term) {
        for (int i = 0; i < term.length(); i++) {
            char c = term.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '!' && i + 1 < term.length() && term.charAt(i + 1) == '=') {
                return new int[] {i, 2};
            } else if (c == '=') {
                return new int[] {i, i + 1 < term.length() && term.charAt(i + 1) == '=' ? 2 : 1};
            }
        }
        return new int[] {-1, 0};
    }

    private static List<String> splitUnescaped(String text) {
        List<String> terms = new ArrayList<>();
        StringBuilder term = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                term.append(c).append(text.charAt(++i));
            } else if (c == ',') {
                terms.add(term.toString());
                term.setLength(0);
            } else {
                term.append(c);
            }
        }
        terms.add(term.toString());
        return terms;
    }

    private static String unescape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length()) {
                c = value.charAt(++i);
            }
            out.append(c);
        }
        return out.toString();
    }
}
