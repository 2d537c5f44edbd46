package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.interpreter.jq.Jq;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.jq.JqLimits;
import dev.cartograph.interpreter.jq.JqResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class JqLimitsTest {
    private final Jq jq = Jq.withLimits(new JqLimits(Duration.ofMillis(200), 1000, 10_000));

    private JqResult run(String expression) {
        Jq.Compiled compiled = jq.compile(expression);
        assertThat(compiled).as(expression).isInstanceOf(Jq.Compiled.Ok.class);
        JqExpression e = ((Jq.Compiled.Ok) compiled).expression();
        return e.evaluate(JsonNodeFactory.instance.objectNode());
    }

    @Test
    void endlessGeneratorsStopAtTheTimeBudget() {
        assertThat(run("reduce range(1e12) as $x (0; . + 1)").error())
                .hasValueSatisfying(m -> assertThat(m).contains("time budget"));
        assertThat(run("[range(1e12)] | length").error()).isPresent();
    }

    @Test
    void aTryCannotSwallowTheBudget() {
        assertThat(run("try (reduce range(1e12) as $x (0; . + 1)) catch 0").error())
                .hasValueSatisfying(m -> assertThat(m).contains("time budget"));
    }

    @Test
    void endlessRecursionIsAnErrorNotACrash() {
        assertThat(run("def f: f; f").ok()).isFalse();
        assertThat(run("[repeat(1)]").ok()).isFalse();
        assertThat(run("until(false; .)").ok()).isFalse();
    }

    @Test
    void outputIsBounded() {
        assertThat(run("range(5000)").error())
                .hasValueSatisfying(m -> assertThat(m).contains("more than 1000 results"));
        // the time budget now covers the reduction inside add too: give it room, so that the string bound is what stops
        // it
        Jq roomy = Jq.withLimits(new JqLimits(Duration.ofSeconds(10), 1000, 10_000));
        JqExpression longString = ((Jq.Compiled.Ok) roomy.compile("[range(20000)] | map(\"x\") | add")).expression();
        assertThat(longString.evaluate(JsonNodeFactory.instance.objectNode()).error())
                .hasValueSatisfying(m -> assertThat(m).contains("longer than"));
    }

    @Test
    void impureFunctionsAreNotInTheScope() {
        for (String impure : new String[] {"now", "env", "$ENV", "input", "[inputs]", "debug", "input_filename"}) {
            Jq.Compiled c = jq.compile(impure);
            boolean failsSomewhere = c instanceof Jq.Compiled.Failed
                    || !((Jq.Compiled.Ok) c)
                            .expression()
                            .evaluate(JsonNodeFactory.instance.nullNode())
                            .ok();
            assertThat(failsSomewhere).as(impure).isTrue();
        }
    }

    @Test
    void ordinaryExpressionsWork() {
        assertThat(run("[1,2,3] | map(. * 2) | add").values())
                .extracting(Object::toString)
                .containsExactly("12");
        assertThat(run(".a // \"dflt\"").values()).extracting(n -> n.asText()).containsExactly("dflt");
    }
}
