package dev.cartograph.interpreter.jq;

import dev.cartograph.interpreter.jq.NodeShapes.Kind;
import dev.cartograph.interpreter.jq.NodeShapes.Role;
import dev.cartograph.interpreter.jq.NodeShapes.Shape;
import dev.cartograph.interpreter.jq.NodeShapes.Slot;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.thisptr.jackson.jq.Expression;
import net.thisptr.jackson.jq.Function;
import net.thisptr.jackson.jq.JsonQuery;
import net.thisptr.jackson.jq.internal.JsonQueryFunction;
import net.thisptr.jackson.jq.internal.misc.Pair;
import net.thisptr.jackson.jq.internal.operators.BinaryOperator;

/**
 * Rewrites a compiled jackson-jq expression tree so that every node that can loop, recurse, iterate
 * or build is {@link Metered} and every operator is {@link GuardedOperator guarded}: the bodies of
 * {@code def}s, function-call arguments, pattern matchers, pipes, every branch. jackson-jq has no
 * hook for this (its {@code Scope} is final in effect and its parser builds nodes directly), so the
 * rewrite goes through reflection on its node classes. Their shape is pinned in {@link NodeShapes} and
 * checked when it loads: a jackson-jq whose nodes have other fields fails at startup with
 * the difference, and a node type not listed fails compilation; neither ever runs unmetered.
 * Thread-safe: compiled trees are rewritten once, before they are shared.
 */
final class Metering {
    private static final Field FUNCTION_BODY = NodeShapes.field(JsonQueryFunction.class, "body");
    private static final Field QUERY_ROOT = NodeShapes.field(JsonQuery.class, "expr");

    private final Map<Object, Object> rewritten = new IdentityHashMap<>();

    private Metering() {}

    /** Meters a freshly compiled query (owned by the caller, not yet shared); returns its metered root. */
    static Expression meter(JsonQuery query) {
        try {
            return meter((Expression) QUERY_ROOT.get(query));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot meter " + query, e);
        }
    }

    private static Expression meter(Expression root) {
        return (Expression) new Metering().rewrite(root, Role.CHILD);
    }

    private static Expression meterCalled(Expression body) {
        return (Expression) new Metering().rewrite(body, Role.CALLED);
    }

    /** Meters the body of a builtin written in jq, in place. Other functions are left alone. */
    static void meterBody(Function function) {
        if (function instanceof JsonQueryFunction) {
            try {
                FUNCTION_BODY.set(function, meterCalled((Expression) FUNCTION_BODY.get(function)));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot meter jq builtin " + function, e);
            }
        }
    }

    /** True for a literal ({@code 1}, {@code "x"}, {@code null}): a small value fixed by the source. */
    static boolean isLiteral(Expression expression) {
        return expression != null
                && expression.getClass().getName().startsWith(NodeShapes.JQ + "internal.tree.literal.");
    }

    private Object rewrite(Object value, Role role) {
        if (value == null
                || value instanceof Metered
                || value instanceof GuardedOperator
                || value instanceof String
                || value instanceof Integer) {
            return value;
        }
        Object done = rewritten.get(value);
        if (done != null) {
            return done;
        }
        Object result;
        if (value instanceof BinaryOperator operator) {
            result = new GuardedOperator(operator);
        } else if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object element : list) {
                out.add(rewrite(element, role));
            }
            result = out;
        } else if (value instanceof Pair<?, ?> pair) {
            result = new Pair<>(rewrite(pair._1, role), rewrite(pair._2, role));
        } else {
            result = node(value, role);
        }
        rewritten.put(value, result);
        return result;
    }

    private Object node(Object node, Role role) {
        Shape shape = NodeShapes.of(node.getClass())
                .orElseThrow(() -> new IllegalStateException("jq construct "
                        + node.getClass().getName() + " (in " + node + ") is not known to the evaluation budget"));
        for (Slot slot : shape.slots()) {
            try {
                slot.field().set(node, rewrite(slot.field().get(node), slot.role()));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(
                        "cannot meter " + node.getClass().getName(), e);
            }
        }
        Kind kind = shape.kind() == Kind.PAIRWISE && !singularChildren(node, shape) ? Kind.PASSING : shape.kind();
        if (kind == Kind.PART || kind == Kind.LEAF && role == Role.CHILD) {
            return node;
        }
        Expression expression = (Expression) node;
        Expression metered = switch (kind) {
            case BUILDING -> Metered.building(expression);
            case PASSING -> Metered.passing(expression);
            default -> role == Role.CALLED ? Metered.entered(expression) : expression;
        };
        return switch (role) {
            case CHILD, CALLED -> metered;
            case COLLECTED -> Metered.collected(metered); // even a leaf or a comma: it feeds one array
            case ASSIGNED -> Metered.assigned(metered); // every path it gives is written
        };
    }

    /** True when {@code value}, a rewritten child, gives at most one value per application. */
    private static boolean singular(Object value) {
        if (value == null) {
            return true; // an absent optional part: .[i] without an end
        }
        if (value instanceof Metered) {
            return false;
        }
        return NodeShapes.of(value.getClass())
                .map(shape -> shape.kind() == Kind.LEAF
                        || (shape.kind() == Kind.SINGLE || shape.kind() == Kind.PAIRWISE)
                                && singularChildren(value, shape))
                .orElse(false);
    }

    private static boolean singularChildren(Object node, Shape shape) {
        for (Slot slot : shape.slots()) {
            try {
                Object child = slot.field().get(node);
                if (!(child instanceof BinaryOperator) && !singular(child)) {
                    return false;
                }
            } catch (IllegalAccessException e) {
                return false;
            }
        }
        return true;
    }
}
