package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.interpreter.jq.Jq;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.jq.JqLimits;
import dev.cartograph.interpreter.jq.JqResult;
import dev.cartograph.interpreter.problem.Problem;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every jq construct counts against an evaluation's budget, so a runaway expression in a definition
 * stops with a budget error within a small multiple of its time budget, and the evaluating thread
 * goes on. The hostile expressions below run against {@link #BIG}: 300 × 300 × 300 = 27 million
 * leaves, shared so that the input itself is small.
 */
@Timeout(60)
class JqBudgetTest {
    private static final Duration BUDGET = Duration.ofSeconds(1);
    private static final Duration WITHIN = BUDGET.multipliedBy(3);
    private static final Jq JQ = Jq.withLimits(new JqLimits(BUDGET, 10_000, 1 << 20));
    private static final Jq ROOMY = Jq.withLimits(new JqLimits(Duration.ofSeconds(30), 10_000, 1 << 22));
    private static final JsonNode BIG = cube(300);
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private static JsonNode cube(int side) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode leaf = f.arrayNode();
        for (int i = 0; i < side; i++) {
            leaf.add(i);
        }
        ArrayNode middle = f.arrayNode();
        ArrayNode top = f.arrayNode();
        for (int i = 0; i < side; i++) {
            middle.add(leaf);
        }
        for (int i = 0; i < side; i++) {
            top.add(middle);
        }
        return top;
    }

    private static JqExpression compile(String source) {
        Jq.Compiled compiled = JQ.compile(source);
        assertThat(compiled).as(source).isInstanceOf(Jq.Compiled.Ok.class);
        return ((Jq.Compiled.Ok) compiled).expression();
    }

    /** Within a small multiple of the budget, counted in the thread's CPU time: other load does not count. */
    private static void assertStopsWithABudgetError(String source) {
        JqExpression expression = compile(source);
        long start = CPU.getCurrentThreadCpuTime();
        JqResult result = expression.evaluate(BIG);
        Duration took = Duration.ofNanos(CPU.getCurrentThreadCpuTime() - start);
        assertThat(result.error())
                .as(source)
                .hasValueSatisfying(e -> assertThat(e).contains("budget"));
        assertThat(took).as(source + " took " + took).isLessThan(WITHIN);
    }

    /** Default steps, elements, bytes and depth, but wall-clock time to spare however loaded the machine is. */
    private static JqExpression roomy(String source) {
        return ((Jq.Compiled.Ok) ROOMY.compile(source)).expression();
    }

    private static void assertTheThreadGoesOn() {
        JqResult ordinary = compile("[.[] | . * 2] | add")
                .evaluate(JsonNodeFactory.instance.arrayNode().add(1).add(2).add(3));
        assertThat(ordinary.values()).extracting(JsonNode::asInt).containsExactly(12); // (1 + 2 + 3) × 2
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[range(1e9)]",
                "reduce range(0; 1e12) as $i (0; . + 1)",
                "def f: f; f",
                "def f: 1 + f; f",
                "def repeat(f): def _r: ., (f | _r); _r; [limit(1e9; 1 | repeat(.))]",
                "\"x\" * 1e9",
                "reduce range(40) as $i (\"x\"; . + .)",
                "[.[] | .[] | .[]]",
                "[foreach (.[] | .[] | .[]) as $x (0; . + $x)] | length",
                "label $out | reduce (.[] | .[] | .[]) as $x (0; if . < 0 then break $out else . + 1 end)",
                "0 | until(. < 0; . + 1)",
                "[0 | while(true; . + 1)] | length",
                "[1 | recurse(. + 1)] | length",
                "[path(..)] | length",
                "[.[][][] as $x | getpath([0, 0, 0])] | length",
                "def tostream: path(def r: (.[]?|r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p+$q]);"
                        + " [tostream] | length",
                "\"a,\" * 100000 | [splits(\",\")] | length",
                "\"a,\" * 2000000 | [match(\",\"; \"g\")] | length",
                "[.[][][]] | group_by(.) | length",
                "[range(1000) | \"x\" * 100000] | length",
                "null | .[1e9] = 1",
                "null | setpath([1e9]; 1)",
                "reduce range(40) as $i ([0]; [., .]) | tojson | length",
                "reduce range(40) as $i ([0]; [., .])",
                "reduce range(40) as $i ([0]; [., .]) | tonumber",
                "reduce range(40) as $i ([0]; [., .]) | error",
                "(reduce range(40) as $i ([0]; [., .])) as $a | (reduce range(40) as $i ([0]; [., .])) as $b | $a == $b",
                "[range(1e5)] as $a | $a - $a",
                "[range(1e6)] | sort | length",
            })
    void hostileExpressionsStopWithABudgetErrorAndTheThreadGoesOn(String source) {
        assertStopsWithABudgetError(source);
        assertTheThreadGoesOn();
    }

    @Test
    void aTryCannotSwallowAnyBudget() {
        assertStopsWithABudgetError("try ([.[] | .[] | .[]]) catch 0");
        assertStopsWithABudgetError("try (def f: 1 + f; f) catch 0");
        assertStopsWithABudgetError("[.[] | try (.[] | .[] | \"x\" * 1e9) catch 0]");
        assertTheThreadGoesOn();
    }

    @Test
    void deepRecursionOnASmallStackIsABudgetErrorNotAStackOverflow() throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread small = new Thread(
                null,
                () -> {
                    try {
                        assertStopsWithABudgetError("def f: 1 + f; f");
                        assertStopsWithABudgetError("[1 | recurse(. + 1)] | length");
                        assertTheThreadGoesOn();
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                },
                "small-stack",
                192 * 1024);
        small.start();
        small.join();
        assertThat(failure.get()).isNull();
    }

    @Test
    void aRunawayDefinitionIsAProblemOfTheObjectItReadsAndTheNextObjectResolves() throws Exception {
        Definitions.Loaded loaded = DefinitionValidationTest.read(ResolveTest.DEFINITION.replace(
                "scaleDefinition: {replicasPath: .spec.groups}",
                "scaleDefinition: {replicasPath: 'def f: 1 + f; [.spec.groups, f] | first'}"));
        assertThat(loaded.problems()).isEmpty();
        Interpreter interpreter = Interpreter.of(loaded.definitions());
        JsonNode object = ResolveTest.yaml(ResolveTest.POOLS);
        long start = CPU.getCurrentThreadCpuTime();
        Resolution r = interpreter.resolve(object);
        Duration took = Duration.ofNanos(CPU.getCurrentThreadCpuTime() - start);
        assertThat(r.problems())
                .extracting(Problem::toString)
                .anySatisfy(p -> assertThat(p)
                        .contains(
                                "definition example-pools spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath")
                        .contains("budget"));
        assertThat(took).isLessThan(JqLimits.DEFAULT.timeout().multipliedBy(3));
        // the thread goes on: the next resolution, with the sane definition, counts as ResolveTest does
        Resolution again = ResolveTest.interpreter().resolve(object);
        assertThat(((Resolution.Resolved) again).view().totals().pods()).isEqualTo(19);
    }

    @Test
    void definitionsCanBeCompiledWithOtherLimits() throws Exception {
        Jq tight = Jq.withLimits(JqLimits.DEFAULT.withMaxSteps(3));
        Definitions.Loaded loaded = Definitions.parse(
                Documents.read(new ByteArrayInputStream(ResolveTest.DEFINITION.getBytes(StandardCharsets.UTF_8))),
                "test.yaml",
                kind -> true,
                tight);
        assertThat(loaded.problems()).isEmpty();
        Resolution r = Interpreter.of(loaded.definitions()).resolve(ResolveTest.yaml(ResolveTest.POOLS));
        // .spec.pools[].name alone takes more than 3 steps: one application, two values, two results
        assertThat(r.problems())
                .extracting(Problem::toString)
                .anyMatch(p -> p.contains("instanceIdPath") && p.contains("time budget of 3 steps"));
    }

    @Test
    void ordinaryWorkWellInsideTheBudgetStillEvaluates() {
        // hand counts: 0 + 1 + ... + 99999 = 4999950000; 300 × 300 leaves of one middle row
        assertThat(roomy("[range(100000)] | add").evaluate(null).values())
                .extracting(JsonNode::asLong)
                .containsExactly(4_999_950_000L);
        assertThat(roomy("[.[0][] | .[]] | length").evaluate(BIG).values())
                .extracting(JsonNode::asInt)
                .containsExactly(90_000);
        assertThat(roomy("[limit(3; .[0][0][])]").evaluate(BIG).values().get(0).toString())
                .isEqualTo("[0,1,2]");
        assertThat(roomy("def fact: if . <= 1 then 1 else . * (. - 1 | fact) end; 20 | fact")
                        .evaluate(null)
                        .values())
                .extracting(JsonNode::asLong)
                .containsExactly(2_432_902_008_176_640_000L);
        assertThat(roomy("[0 | until(. >= 50; . + 1)]")
                        .evaluate(null)
                        .values()
                        .get(0)
                        .toString())
                .isEqualTo("[50]");
    }
}
