package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simplest expressions, which are most of what definitions evaluate ({@code .spec.template},
 * {@code .spec.replicas // 1}, {@code .spec.groups[].template}, {@code path(.spec.template)}, a
 * literal), read straight from the input instead of through jackson-jq's general machinery.
 *
 * <p>It answers only where the answer is certain to be the engine's: every step meets an object or
 * null (anything else is an error or a case of jq's own, left to the engine), at most
 * {@value #MAX_ITERATED} iterated elements, no result beyond the limits' result count or string
 * length, and limits that this little work can never reach ({@value #MIN_STEPS} steps and
 * {@value #MIN_DEPTH} levels: the engine looks at the clock only every 256 steps). Otherwise
 * {@link #evaluate} returns null and the engine evaluates. Immutable and thread-safe.
 */
class Shortcut {
    static final int MAX_ITERATED = 16;
    static final int MIN_STEPS = 256;
    static final int MIN_DEPTH = 64;
    private static final int MAX_KEYS = 16;

    private static final String KEY = "\\.[A-Za-z_][A-Za-z0-9_]*";
    private static final Pattern CHAIN =
            Pattern.compile("\\s*(?<path>path\\(\\s*)?(?<before>\\.|(?:" + KEY + ")+)(?<iterate>\\[\\])?(?<after>(?:"
                    + KEY + ")*)\\s*(?<close>\\))?\\s*(?://\\s*(?<alternative>.*?))?\\s*");
    private static final Pattern LITERAL =
            Pattern.compile("(?:0|[1-9][0-9]{0,8})|\"[A-Za-z0-9 _./:-]*\"|null|true|false");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final String[] before;
    private final boolean iterate;
    private final String[] after;
    private final boolean paths;
    private final JsonNode alternative;

    private Shortcut(String[] before, boolean iterate, String[] after, boolean paths, JsonNode alternative) {
        this.before = before;
        this.iterate = iterate;
        this.after = after;
        this.paths = paths;
        this.alternative = alternative;
    }

    /** The shortcut for {@code source}, or null when it is not one of the simple forms. */
    static Shortcut of(String source) {
        Matcher m = CHAIN.matcher(source);
        if (!m.matches()) {
            String text = source.strip();
            return LITERAL.matcher(text).matches() ? new Literal(literal(text)) : null;
        }
        boolean paths = m.group("path") != null;
        if (paths != (m.group("close") != null) || paths && m.group("alternative") != null) {
            return null;
        }
        JsonNode alternative = null;
        if (m.group("alternative") != null) {
            if (!LITERAL.matcher(m.group("alternative")).matches()) {
                return null;
            }
            alternative = literal(m.group("alternative"));
        }
        String[] before = keys(m.group("before"));
        String[] after = keys(m.group("after"));
        if (before.length + after.length > MAX_KEYS || m.group("iterate") == null && after.length > 0) {
            return null;
        }
        return new Shortcut(before, m.group("iterate") != null, after, paths, alternative);
    }

    /**
     * What the engine would give for {@code in} (never null or missing: the caller passes null as
     * {@link NullNode}), or null when only the engine can say.
     */
    JqResult evaluate(JsonNode in, JqLimits limits) {
        if (limits.maxSteps() < MIN_STEPS || limits.maxDepth() < MIN_DEPTH) {
            return null;
        }
        JsonNode base = walk(in, before);
        if (base == null) {
            return null;
        }
        List<JsonNode> out = new ArrayList<>(iterate ? base.size() : 1);
        if (!iterate) {
            out.add(paths ? path(before, null, null) : base);
        } else {
            if (!base.isContainerNode() || base.size() > MAX_ITERATED) {
                return null; // iterating null, a number or a string is an error of the engine's
            }
            int index = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = entries(base); it.hasNext(); index++) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode value = walk(e.getValue(), after);
                if (value == null) {
                    return null;
                }
                out.add(paths ? path(before, e.getKey() == null ? IntNode.valueOf(index) : e.getKey(), after) : value);
            }
        }
        if (alternative != null) {
            out.removeIf(v -> v.isNull() || v.isBoolean() && !v.booleanValue());
            if (out.isEmpty()) {
                out.add(alternative);
            }
        }
        return withinLimits(out, limits) ? JqResult.ok(out) : null;
    }

    static boolean withinLimits(List<JsonNode> out, JqLimits limits) {
        if (out.size() > limits.maxResults()) {
            return false;
        }
        for (JsonNode v : out) {
            if (v.isTextual() && v.textValue().length() > limits.maxStringLength()) {
                return false;
            }
        }
        return true;
    }

    /** {@code node} followed by {@code keys}; null where a step meets something that is neither object nor null. */
    private static JsonNode walk(JsonNode node, String[] keys) {
        JsonNode at = node;
        for (String key : keys) {
            if (at.isObject()) {
                JsonNode next = at.get(key);
                at = next == null ? NullNode.getInstance() : next;
            } else if (!at.isNull()) {
                return null;
            }
        }
        return at;
    }

    /** An array's elements (keys null) or an object's entries, in order. */
    private static Iterator<Map.Entry<String, JsonNode>> entries(JsonNode container) {
        if (container.isObject()) {
            return container.fields();
        }
        Iterator<JsonNode> elements = container.elements();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return elements.hasNext();
            }

            @Override
            public Map.Entry<String, JsonNode> next() {
                return new java.util.AbstractMap.SimpleImmutableEntry<>(null, elements.next());
            }
        };
    }

    private static ArrayNode path(String[] before, Object step, String[] after) {
        ArrayNode path = F.arrayNode();
        for (String key : before) {
            path.add(key);
        }
        if (step != null) {
            path.add(step instanceof JsonNode index ? index : TextNode.valueOf((String) step));
        }
        for (int i = 0; after != null && i < after.length; i++) {
            path.add(after[i]);
        }
        return path;
    }

    private static String[] keys(String chain) {
        return chain.isEmpty() || chain.equals(".")
                ? new String[0]
                : chain.substring(1).split("\\.");
    }

    private static JsonNode literal(String text) {
        return switch (text) {
            case "null" -> NullNode.getInstance();
            case "true" -> BooleanNode.TRUE;
            case "false" -> BooleanNode.FALSE;
            default ->
                text.startsWith("\"")
                        ? TextNode.valueOf(text.substring(1, text.length() - 1))
                        : IntNode.valueOf(Integer.parseInt(text));
        };
    }

    /** A whole expression that is a literal: its value, whatever the input. */
    private static final class Literal extends Shortcut {
        private final JsonNode value;

        Literal(JsonNode value) {
            super(new String[0], false, new String[0], false, null);
            this.value = value;
        }

        @Override
        JqResult evaluate(JsonNode in, JqLimits limits) {
            List<JsonNode> out = List.of(value);
            return limits.maxSteps() >= MIN_STEPS && limits.maxDepth() >= MIN_DEPTH && withinLimits(out, limits)
                    ? JqResult.ok(out)
                    : null;
        }
    }
}
