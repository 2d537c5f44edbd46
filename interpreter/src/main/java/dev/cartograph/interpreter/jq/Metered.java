package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import net.thisptr.jackson.jq.Expression;
import net.thisptr.jackson.jq.PathOutput;
import net.thisptr.jackson.jq.Scope;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import net.thisptr.jackson.jq.path.Path;

/**
 * A node of a compiled expression that charges the running {@link Budget}: a step and a level of
 * nesting for every application, a step for every value it emits, and, by kind, the size of the
 * values it builds or the paths it will have written. {@link Metering} decides which nodes are
 * metered. Outside an evaluation (no budget on the thread) it only delegates. Immutable and
 * thread-safe, as jackson-jq's nodes are.
 */
class Metered implements Expression {
    final Expression inner;

    Metered(Expression inner) {
        this.inner = inner;
    }

    /** Iterates, loops, runs a {@code def}'s body or combines values pairwise: steps and nesting only. */
    static Expression passing(Expression inner) {
        return new Metered(inner);
    }

    /** The body of a {@code def}: each call is a step and a level deeper; what it emits its parts count. */
    static Expression entered(Expression inner) {
        return new Entered(inner);
    }

    /** Builds the values it emits (operators, object and string construction): sizes them too. */
    static Expression building(Expression inner) {
        return new Building(inner);
    }

    /** The body of {@code [...]}: every value it emits becomes an element of one array. */
    static Expression collected(Expression inner) {
        return new Collected(inner);
    }

    /** The left side of an assignment: every path it emits will be written, copying what lies on it. */
    static Expression assigned(Expression inner) {
        return new Assigned(inner);
    }

    @Override
    public final void apply(Scope scope, JsonNode in, Path path, PathOutput output, boolean requirePath)
            throws JsonQueryException {
        Budget budget = Budget.current();
        if (budget == null) {
            inner.apply(scope, in, path, output, requirePath);
            return;
        }
        budget.enter();
        try {
            inner.apply(scope, in, path, meter(budget, in, output, requirePath), requirePath);
        } finally {
            budget.leave();
        }
    }

    PathOutput meter(Budget budget, JsonNode in, PathOutput output, boolean requirePath) {
        if (requirePath) {
            return (value, valuePath) -> {
                budget.step();
                if (valuePath == null) {
                    budget.walkable(value); // jackson-jq is about to fail, printing the value whole
                }
                output.emit(value, valuePath);
            };
        }
        return (value, valuePath) -> {
            budget.step();
            output.emit(value, valuePath);
        };
    }

    @Override
    public String toString() {
        return inner.toString();
    }

    private static final class Entered extends Metered {
        Entered(Expression inner) {
            super(inner);
        }

        @Override
        PathOutput meter(Budget budget, JsonNode in, PathOutput output, boolean requirePath) {
            return output;
        }
    }

    private static final class Building extends Metered {
        Building(Expression inner) {
            super(inner);
        }

        @Override
        PathOutput meter(Budget budget, JsonNode in, PathOutput output, boolean requirePath) {
            return (value, valuePath) -> {
                budget.step();
                budget.built(value);
                output.emit(value, valuePath);
            };
        }
    }

    private static final class Collected extends Metered {
        Collected(Expression inner) {
            super(inner);
        }

        @Override
        PathOutput meter(Budget budget, JsonNode in, PathOutput output, boolean requirePath) {
            long[] count = {0};
            return (value, valuePath) -> {
                budget.step();
                budget.collected(++count[0]);
                output.emit(value, valuePath);
            };
        }
    }

    private static final class Assigned extends Metered {
        Assigned(Expression inner) {
            super(inner);
        }

        @Override
        PathOutput meter(Budget budget, JsonNode in, PathOutput output, boolean requirePath) {
            return (value, valuePath) -> {
                budget.step();
                if (valuePath == null) {
                    budget.walkable(value); // jackson-jq is about to fail, printing the value whole
                } else {
                    ArrayNode steps = JsonNodeFactory.instance.arrayNode();
                    valuePath.toJsonNode(steps);
                    Paths.charge(budget, in, steps);
                }
                output.emit(value, valuePath);
            };
        }
    }
}
