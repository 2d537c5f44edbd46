package dev.cartograph.interpreter.jq;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import net.thisptr.jackson.jq.Expression;
import net.thisptr.jackson.jq.internal.tree.FieldConstruction;
import net.thisptr.jackson.jq.internal.tree.PipeComponent;
import net.thisptr.jackson.jq.internal.tree.matcher.PatternMatcher;
import net.thisptr.jackson.jq.internal.tree.matcher.matchers.ObjectMatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The budget rewrites jackson-jq's trees through reflection, so these pin the jackson-jq it was
 * written for: every node class in its jar is known (a new one fails here, and fails compilation,
 * rather than running unmetered), the field shapes were checked when {@link Metering} loaded, and
 * every construct still means what jq says after the rewrite.
 */
@Timeout(30)
class JqMeteringTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Built only at run time (closures of {@code def} parameters), never part of a compiled tree. */
    private static final Set<String> RUNTIME_ONLY = Set.of("net.thisptr.jackson.jq.internal.FixedScopeQuery");

    @Test
    void everyNodeClassOfJacksonJqIsKnownToTheBudget() throws IOException, URISyntaxException, ClassNotFoundException {
        List<String> unknown = new ArrayList<>();
        int nodes = 0;
        Path jar = Path.of(Expression.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : file.stream().toList()) {
                String name = entry.getName();
                if (!name.startsWith("net/thisptr/jackson/jq/internal/") || !name.endsWith(".class")) {
                    continue;
                }
                Class<?> c = Class.forName(
                        name.replace('/', '.').replace(".class", ""), false, Expression.class.getClassLoader());
                boolean node = Expression.class.isAssignableFrom(c)
                        || PipeComponent.class.isAssignableFrom(c)
                        || FieldConstruction.class.isAssignableFrom(c)
                        || PatternMatcher.class.isAssignableFrom(c)
                        || c == ObjectMatcher.FieldMatcher.class;
                if (!node
                        || c.isInterface()
                        || Modifier.isAbstract(c.getModifiers())
                        || c.isSynthetic()
                        || c.isAnonymousClass()
                        || RUNTIME_ONLY.contains(c.getName())) {
                    continue;
                }
                nodes++;
                if (!NodeShapes.knows(c)) {
                    unknown.add(c.getName());
                }
            }
        }
        assertThat(nodes).as("node classes found in " + jar).isGreaterThan(50);
        assertThat(unknown)
                .as("node classes the budget does not meter; add them to NodeShapes.SPEC")
                .isEmpty();
    }

    @Test
    void everyBuiltinChargedForItsWorkIsOneOfTheEngines() {
        assertThat(BoundedFunction.charged())
                .isNotEmpty()
                .allSatisfy(name ->
                        assertThat(Jq.standard().hasJavaBuiltin(name)).as(name).isTrue());
    }

    @Test
    void everyConstructMeansTheSameAfterMetering() throws IOException {
        Jq jq = Jq.standard();
        String input = "{\"a\": [1, 2, 3], \"k\": \"b\", \"s\": \"x\", \"o\": {\"p\": 1}}";
        // expression -> expected output (all values, as compact JSON), per jq 1.6's manual
        String[][] cases = {
            {".a[0], .[\"k\"], .a[1:], .a[-1:]", "1 \"b\" [2,3] [3]"},
            {"[.a[] | . * 2]", "[2,4,6]"},
            {"[.. | numbers]", "[1,2,3,1]"},
            {".k as $x | \"\\($x)-\\(.s)\"", "\"b-x\""},
            {"@base64 \"\\(.s)\"", "\"eA==\""},
            {"(try error(\"no\") catch .), ((.z.y?) // \"alt\"), (.k as $v | {$v})", "\"no\" \"alt\" {\"v\":\"b\"}"},
            {"if .a[0] == 2 then \"two\" elif .a[0] == 1 then \"one\" else \"none\" end", "\"one\""},
            {"reduce .a[] as $x (0; . + $x)", "6"},
            {"[foreach .a[] as $x (0; . + $x; [$x, .])]", "[[1,1],[2,3],[3,6]]"},
            {"[label $out | .a[] | if . > 1 then ., break $out else . end]", "[1,2]"},
            {"{a: 1, \"b\": 2, (.k + \"c\"): 3, k, \"\\(.s)\": 4} | keys", "[\"a\",\"b\",\"bc\",\"k\",\"x\"]"},
            {". as {a: [$first, $second], $k} | [$first, $second, $k]", "[1,2,\"b\"]"},
            {
                ".o.p = 5 | .o.p |= . + 1 | .o.p += 1 | .o.p -= 2 | .o.p *= 3 | .o.p /= 5 | .o.p %= 2 | .o.q //= 9 | .o",
                "{\"p\":1,\"q\":9}"
            },
            {
                "[true and false, true or false, (null // 1), -(.a[0]), 1 < 2, 2 <= 1, 1 > 2, 2 >= 2, 1 != 2]",
                "[false,true,1,-1,true,false,false,true,true]"
            },
            {
                "def f(g; $x): g + $x; def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; f(.a[0]; 10), (5 | fac)",
                "11 120"
            },
            {
                "[paths], path(.a[0]), getpath([\"o\", \"p\"])",
                "[[\"a\"],[\"a\",0],[\"a\",1],[\"a\",2],[\"k\"],[\"s\"],[\"o\"],[\"o\",\"p\"]] [\"a\",0] 1"
            },
            {
                "([.a[] | tostring] | join(\",\")), (.a | sort_by(-.) | first), ([.a[] | {v: (. % 2)}] | group_by(.v) | length)",
                "\"1,2,3\" 3 2"
            },
            {
                "(del(.a[0]) | .a), (setpath([\"a\", 1]; 0) | .a), (to_entries | length), (.a - [2]), (.a | contains([3]))",
                "[2,3] [1,0,3] 4 [1,3] true"
            },
            {
                "[limit(2; .a[])], first(.a[]), [range(3)], (.s * 3), (\"a,b\" | split(\",\")), ([.a[] | select(. > 1)] | add)",
                "[1,2] 1 [0,1,2] \"xxx\" [\"a\",\"b\"] 5"
            },
            {
                "[.a[] as $x | $x] == .a, ([1, [2]] | flatten), (.a | index(2)), ({} | .x.y = 1), ([3,1,2] | sort | unique)",
                "true [1,2] 1 {\"x\":{\"y\":1}} [1,2,3]"
            },
        };
        for (String[] c : cases) {
            Jq.Compiled compiled = jq.compile(c[0]);
            assertThat(compiled).as(c[0]).isInstanceOf(Jq.Compiled.Ok.class);
            JqResult result = ((Jq.Compiled.Ok) compiled).expression().evaluate(JSON.readTree(input));
            assertThat(result.error()).as(c[0]).isEmpty();
            assertThat(String.join(
                            " ",
                            result.values().stream().map(JsonNode::toString).toList()))
                    .as(c[0])
                    .isEqualTo(c[1]);
        }
    }
}
