package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.List;
import net.thisptr.jackson.jq.Expression;
import net.thisptr.jackson.jq.exception.JsonQueryException;

/**
 * A compiled jq expression. Immutable and thread-safe: evaluate it from any thread, any number of
 * times. Each evaluation is bounded in time and output by the engine's {@link JqLimits}; when a
 * bound is hit, or the expression raises an error, the result carries the error and no values.
 */
public final class JqExpression {
    private final String source;
    private final Expression root;
    private final Jq engine;
    private final Shortcut shortcut;
    private final String compactSource;
    private volatile JqExpression pathQuery;

    JqExpression(String source, Expression root, Jq engine) {
        this.source = source;
        this.root = root;
        this.engine = engine;
        this.shortcut = Shortcut.of(source);
        this.compactSource = source.replaceAll("\\s+", ""); // once per expression, not per object
    }

    public String source() {
        return source;
    }

    /** The source without whitespace, to compare two expressions' text ({@code .a | .b} and {@code .a|.b}). */
    public String compactSource() {
        return compactSource;
    }

    /**
     * Evaluates against {@code input} (never modified). Never throws: an error of the expression, or
     * a bound of {@link JqLimits} exceeded, comes back as the result's error, and the thread can go on.
     */
    public JqResult evaluate(JsonNode input) {
        JsonNode in = input == null || input instanceof MissingNode ? NullNode.getInstance() : input;
        JqResult quick = shortcut == null ? null : shortcut.evaluate(in, engine.limits());
        return quick != null ? quick : evaluateByEngine(in);
    }

    /** True when the simplest inputs of this expression are read without the engine (see {@link Shortcut}). */
    boolean hasShortcut() {
        return shortcut != null;
    }

    /** {@link #evaluate} by jackson-jq alone, never the {@link Shortcut}. */
    JqResult evaluateByEngine(JsonNode input) {
        JsonNode in = input == null || input instanceof MissingNode ? NullNode.getInstance() : input;
        JqLimits limits = engine.limits();
        List<JsonNode> out = new ArrayList<>();
        Budget budget = Budget.open(limits);
        try {
            root.apply(engine.newEvaluationScope(), in, value -> {
                budget.step();
                if (out.size() >= limits.maxResults()) {
                    throw new JsonQueryException("more than " + limits.maxResults() + " results");
                }
                if (value.isTextual() && value.textValue().length() > limits.maxStringLength()) {
                    throw new JsonQueryException("a result longer than " + limits.maxStringLength() + " characters");
                }
                budget.walkable(value); // callers copy and print results whole
                out.add(value);
            });
            return JqResult.ok(out);
        } catch (JsonQueryException e) {
            return JqResult.failed(Jq.cleanMessage(e));
        } catch (Budget.BudgetExceeded e) {
            return JqResult.failed(e.getMessage());
        } catch (StackOverflowError e) {
            return JqResult.failed("evaluation exceeded its recursion budget: the thread's stack ran out at "
                    + budget.deepest() + " nested calls");
        } catch (OutOfMemoryError e) {
            return JqResult.failed("evaluation exceeded its allocation budget: result too large for memory");
        } catch (RuntimeException e) {
            return JqResult.failed("evaluation failed: " + Jq.cleanMessage(e));
        } finally {
            budget.close();
        }
    }

    /**
     * The paths this expression points at in {@code input}, as jq's {@code path(f)} gives them
     * (arrays of keys and indices). Fails for expressions that are not paths.
     */
    public JqResult paths(JsonNode input) {
        JqExpression paths = pathQuery;
        if (paths == null) {
            Jq.Compiled compiled = engine.compile("path(" + source + ")");
            if (compiled instanceof Jq.Compiled.Failed failed) {
                return JqResult.failed(failed.reason());
            }
            paths = ((Jq.Compiled.Ok) compiled).expression();
            pathQuery = paths;
        }
        return paths.evaluate(input);
    }

    @Override
    public String toString() {
        return source;
    }
}
