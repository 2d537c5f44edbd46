package dev.cartograph.mock.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JSONPath subset CRD printer columns use: {@code .a.b}, {@code ['a.b/c']}, {@code [0]},
 * {@code [-1]}, {@code [*]} and the filter {@code [?(@.type=="Ready")]} (also {@code !=}, and
 * {@code [?(@.x)]} for existence), optionally wrapped in {@code {...}}; {@code \.} escapes a dot
 * in a plain key. No recursive descent, unions or slices. Compiled once; immutable and thread-safe.
 */
final class SimpleJsonPath {
    private sealed interface Step permits Key, Index, All, Filter {}

    private record Key(String name) implements Step {}

    private record Index(int index) implements Step {}

    private record All() implements Step {}

    /** {@code [?(@.path OP literal)]}; with no operator, an existence test. */
    private record Filter(SimpleJsonPath path, Optional<String> operator, Optional<JsonNode> literal) implements Step {}

    private final String text;
    private final List<Step> steps;

    private SimpleJsonPath(String text, List<Step> steps) {
        this.text = text;
        this.steps = List.copyOf(steps);
    }

    /** The path, or empty with no reason given when it is outside the subset (the column then stays empty). */
    static Optional<SimpleJsonPath> compile(String expression) {
        String body = expression.trim();
        if (body.startsWith("{") && body.endsWith("}")) {
            body = body.substring(1, body.length() - 1).trim();
        }
        try {
            return Optional.of(new SimpleJsonPath(expression, new PathParser(body).steps()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Every value the path selects in {@code root}, in document order; JSON nulls included, missing fields not. */
    List<JsonNode> evaluate(JsonNode root) {
        List<JsonNode> current = List.of(root);
        for (Step step : steps) {
            List<JsonNode> next = new ArrayList<>();
            current.forEach(node -> apply(step, node, next));
            current = next;
        }
        return current;
    }

    /** The first value selected, if any (what the API server puts in a printer column cell). */
    Optional<JsonNode> first(JsonNode root) {
        return evaluate(root).stream().findFirst();
    }

    @Override
    public String toString() {
        return text;
    }

    private static void apply(Step step, JsonNode node, List<JsonNode> out) {
        if (step instanceof Key key) {
            if (node.isObject() && node.has(key.name())) {
                out.add(node.get(key.name()));
            }
        } else if (step instanceof Index index) {
            int i = index.index() < 0 ? node.size() + index.index() : index.index();
            if (node.isArray() && i >= 0 && i < node.size()) {
                out.add(node.get(i));
            }
        } else if (step instanceof All) {
            if (node.isContainerNode()) {
                node.elements().forEachRemaining(out::add);
            }
        } else if (step instanceof Filter filter && node.isArray()) {
            node.elements().forEachRemaining(element -> {
                if (matches(filter, element)) {
                    out.add(element);
                }
            });
        }
    }

    private static boolean matches(Filter filter, JsonNode element) {
        Optional<JsonNode> value = filter.path().first(element);
        if (filter.operator().isEmpty()) {
            return value.isPresent() && !value.get().isNull();
        }
        boolean equal =
                value.isPresent() && sameValue(value.get(), filter.literal().orElseThrow());
        return "==".equals(filter.operator().get()) == equal;
    }

    private static boolean sameValue(JsonNode actual, JsonNode literal) {
        if (actual.isNumber() && literal.isNumber()) {
            return actual.decimalValue().compareTo(literal.decimalValue()) == 0;
        }
        return actual.equals(literal);
    }

    /** Recursive-descent parser for the subset; throws IllegalArgumentException outside it. */
    private static final class PathParser {
        private final String s;
        private int pos;

        PathParser(String s) {
            this.s = s;
        }

        List<Step> steps() {
            List<Step> steps = new ArrayList<>();
            if (pos < s.length() && (s.charAt(pos) == '@' || s.charAt(pos) == '$')) {
                pos++;
            }
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '.') {
                    pos++;
                    if (pos < s.length() && s.charAt(pos) == '.') {
                        throw new IllegalArgumentException("recursive descent is not supported");
                    }
                    if (pos < s.length() && s.charAt(pos) != '[') {
                        steps.add(new Key(plainKey()));
                    }
                } else if (c == '[') {
                    steps.add(bracket());
                } else {
                    throw new IllegalArgumentException("unexpected '" + c + "' at " + pos);
                }
            }
            return steps;
        }

        private String plainKey() {
            StringBuilder key = new StringBuilder();
            while (pos < s.length() && s.charAt(pos) != '.' && s.charAt(pos) != '[') {
                if (s.charAt(pos) == '\\' && pos + 1 < s.length()) {
                    pos++;
                }
                key.append(s.charAt(pos++));
            }
            if (key.isEmpty()) {
                throw new IllegalArgumentException("empty key at " + pos);
            }
            return key.toString();
        }

        private Step bracket() {
            int close = s.indexOf(']', pos);
            if (s.startsWith("[?(", pos)) {
                close = s.indexOf(")]", pos);
                if (close < 0) {
                    throw new IllegalArgumentException("unterminated filter");
                }
                Step filter = filter(s.substring(pos + 3, close).trim());
                pos = close + 2;
                return filter;
            }
            if (close < 0) {
                throw new IllegalArgumentException("unterminated [");
            }
            String inside = s.substring(pos + 1, close).trim();
            pos = close + 1;
            if (inside.equals("*")) {
                return new All();
            }
            if (inside.length() >= 2
                    && (inside.startsWith("'") && inside.endsWith("'")
                            || inside.startsWith("\"") && inside.endsWith("\""))) {
                return new Key(inside.substring(1, inside.length() - 1));
            }
            return new Index(Integer.parseInt(inside));
        }

        private static Step filter(String condition) {
            int op = condition.indexOf("==") >= 0 ? condition.indexOf("==") : condition.indexOf("!=");
            if (op < 0) {
                return new Filter(relative(condition), Optional.empty(), Optional.empty());
            }
            return new Filter(
                    relative(condition.substring(0, op).trim()),
                    Optional.of(condition.substring(op, op + 2)),
                    Optional.of(literal(condition.substring(op + 2).trim())));
        }

        private static SimpleJsonPath relative(String path) {
            if (!path.startsWith("@")) {
                throw new IllegalArgumentException("a filter must test a path below @");
            }
            return new SimpleJsonPath(path, new PathParser(path).steps());
        }

        private static JsonNode literal(String text) {
            if (text.length() >= 2
                    && (text.startsWith("\"") && text.endsWith("\"") || text.startsWith("'") && text.endsWith("'"))) {
                return Cells.FACTORY.textNode(text.substring(1, text.length() - 1));
            }
            if (text.equals("true") || text.equals("false")) {
                return Cells.FACTORY.booleanNode(Boolean.parseBoolean(text));
            }
            try {
                return Cells.FACTORY.numberNode(new BigDecimal(text));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("unsupported filter literal " + text, e);
            }
        }
    }
}
