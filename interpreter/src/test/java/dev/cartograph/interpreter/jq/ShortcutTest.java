package dev.cartograph.interpreter.jq;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Shortcut} answers the simplest expressions without jackson-jq. Wherever it answers, the
 * answer must be the engine's exactly (values, node types, order, errors), under any limits; these
 * compare the two on every simple form over generated inputs, with the engine held to tighter
 * limits than the shortcut assumes, so that an answer the budget could have changed fails here.
 */
@Timeout(60)
class ShortcutTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] KEYS = {"a", "b", "c"};
    /** Every simple form, over keys a, b and c, and some near misses the engine must keep. */
    private static final String[] SOURCES = {
        ".",
        ".a",
        ".a.b",
        ".a.b.c",
        ".b.a",
        ".[]",
        ".a[]",
        ".a[].b",
        ".[].a.b",
        ".a.b[].c.a",
        ".a // 1",
        ".a.b // 0",
        ".a[].b // 1",
        ".a // \"x\"",
        ".a // null",
        ".a // false",
        ".a // true",
        ".[] // 7",
        "path(.)",
        "path(.a)",
        "path(.a.b)",
        "path(.[])",
        "path(.a[].b)",
        "path( .a.b.c )",
        " .a.b\n",
        "1",
        "0",
        "42",
        "\"text\"",
        "null",
        "true",
        "false",
        // not shortcuts: the engine answers
        ".a.b?",
        ".a[0]",
        ".a // .b",
        "-1",
        ".a // -1",
        "path(.a // 1)",
        ".[]?",
        "..",
        ".a | .b",
        "(.a)",
        "1.5"
    };

    @Test
    void everySimpleFormGivesTheEnginesAnswerOnEveryInput() throws Exception {
        Random random = new Random(14);
        List<JsonNode> inputs = new ArrayList<>(List.of(
                JSON.readTree("null"),
                JSON.readTree("5"),
                JSON.readTree("\"s\""),
                JSON.readTree("[]"),
                JSON.readTree("{}"),
                JSON.readTree("{\"a\": null}"),
                JSON.readTree("{\"a\": false}"),
                JSON.readTree("{\"a\": {\"b\": [{\"c\": 1}, {\"c\": null}, {\"b\": 2}]}}"),
                JSON.readTree("{\"a\": [{\"b\": null}, {\"b\": false}]}"),
                JSON.readTree("{\"a\": [{\"b\": 1}, null, {\"b\": 3}]}")));
        ArrayNode wide = F.arrayNode(); // more elements than the shortcut iterates: left to the engine
        for (int i = 0; i < 40; i++) {
            wide.addObject().put("b", i);
        }
        inputs.add(F.objectNode().set("a", wide));
        for (int i = 0; i < 400; i++) {
            inputs.add(random(random, 4));
        }
        Jq fast = Jq.standard();
        // the most the shortcut assumes the engine may need: fewer steps and levels than its guard
        Jq tight = Jq.withLimits(
                JqLimits.DEFAULT.withMaxSteps(Shortcut.MIN_STEPS - 1).withMaxDepth(Shortcut.MIN_DEPTH - 1));
        int answered = 0;
        for (String source : SOURCES) {
            JqExpression quick = compile(fast, source);
            JqExpression reference = compile(tight, source);
            for (JsonNode input : inputs) {
                JqResult shortcut = quick.hasShortcut() ? shortcutOf(source).evaluate(input, fast.limits()) : null;
                if (shortcut == null) {
                    continue;
                }
                answered++;
                JqResult engine = reference.evaluateByEngine(input);
                assertThat(engine.error()).as("%s on %s", source, input).isEmpty();
                assertSame(shortcut, engine, source + " on " + input);
                assertSame(quick.evaluate(input), quick.evaluateByEngine(input), source + " on " + input);
            }
        }
        // hand count: 32 shortcut sources, over 411 inputs; most inputs are objects, so most are answered
        assertThat(answered).isGreaterThan(32 * 411 / 4);
        for (String source : SOURCES) {
            boolean simple = List.of(SOURCES).indexOf(source) < List.of(SOURCES).indexOf(".a.b?");
            assertThat(compile(fast, source).hasShortcut()).as(source).isEqualTo(simple);
        }
    }

    @Test
    void limitsTheShortcutCannotPromiseAreLeftToTheEngine() throws Exception {
        JsonNode input = JSON.readTree("{\"a\": {\"b\": \"longer than three\"}, \"l\": [1, 2, 3]}");
        Jq shortStrings = Jq.withLimits(new JqLimits(Duration.ofSeconds(1), 10, 3));
        JqExpression text = compile(shortStrings, ".a.b");
        assertThat(text.evaluate(input).error()).isPresent();
        assertSame(text.evaluate(input), text.evaluateByEngine(input), ".a.b, strings of at most 3");

        Jq fewResults = Jq.withLimits(new JqLimits(Duration.ofSeconds(1), 2, 100));
        JqExpression all = compile(fewResults, ".l[]");
        assertThat(all.evaluate(input).error()).isPresent();
        assertSame(all.evaluate(input), all.evaluateByEngine(input), ".l[], at most 2 results");

        Jq oneStep = Jq.withLimits(JqLimits.DEFAULT.withMaxSteps(1));
        JqExpression path = compile(oneStep, ".a.b");
        assertSame(path.evaluate(input), path.evaluateByEngine(input), ".a.b, one step");
    }

    private static void assertSame(JqResult actual, JqResult expected, String what) {
        assertThat(actual.error()).as(what).isEqualTo(expected.error());
        assertThat(actual.values()).as(what).isEqualTo(expected.values());
        for (int i = 0; i < actual.values().size(); i++) {
            assertThat(types(actual.values().get(i)))
                    .as(what)
                    .isEqualTo(types(expected.values().get(i)));
        }
    }

    /** The node classes of a value, depth first: IntNode and LongNode of one number are not equal. */
    private static List<String> types(JsonNode node) {
        List<String> out = new ArrayList<>();
        out.add(node.getClass().getSimpleName());
        node.forEach(child -> out.addAll(types(child)));
        return out;
    }

    private static Shortcut shortcutOf(String source) {
        return Shortcut.of(source);
    }

    private static JqExpression compile(Jq jq, String source) {
        return ((Jq.Compiled.Ok) jq.compile(source)).expression();
    }

    /** A random value, mostly objects keyed a, b, c, so that paths often reach something. */
    private static JsonNode random(Random random, int depth) {
        int kind = depth == 0 ? 4 + random.nextInt(5) : random.nextInt(9);
        switch (kind) {
            case 0, 1, 2 -> {
                ObjectNode o = F.objectNode();
                for (String key : KEYS) {
                    if (random.nextInt(3) > 0) {
                        o.set(key, random(random, depth - 1));
                    }
                }
                return o;
            }
            case 3 -> {
                ArrayNode a = F.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    a.add(random(random, depth - 1));
                }
                return a;
            }
            case 4 -> {
                return F.nullNode();
            }
            case 5 -> {
                return F.booleanNode(random.nextBoolean());
            }
            case 6 -> {
                return F.numberNode(random.nextInt(10));
            }
            case 7 -> {
                return F.numberNode(random.nextDouble());
            }
            default -> {
                return F.textNode("t" + random.nextInt(3));
            }
        }
    }
}
