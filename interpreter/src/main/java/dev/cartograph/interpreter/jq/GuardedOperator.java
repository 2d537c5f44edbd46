package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import net.thisptr.jackson.jq.internal.operators.BinaryOperator;

/**
 * An arithmetic or comparison operator that charges the running {@link Budget} before the work that
 * one application of it can do at once: repeating a string ({@code "x" * 1e9}), subtracting arrays
 * (every element against every other), and walking whole containers (comparing, merging, or printing
 * them into a type error). Its result is sized by the {@link Metered} node that emits it. Immutable.
 */
final class GuardedOperator implements BinaryOperator {
    private static final Set<String> COMPARISONS = Set.of("==", "!=", "<", "<=", ">", ">=");

    private final BinaryOperator delegate;
    private final String image;

    GuardedOperator(BinaryOperator delegate) {
        this.delegate = delegate;
        this.image = delegate.image();
    }

    @Override
    public JsonNode apply(ObjectMapper mapper, JsonNode lhs, JsonNode rhs) throws JsonQueryException {
        Budget budget = Budget.current();
        if (budget != null) {
            charge(budget, lhs, rhs);
        }
        return delegate.apply(mapper, lhs, rhs);
    }

    private void charge(Budget budget, JsonNode lhs, JsonNode rhs) {
        if ("*".equals(image) && (lhs.isTextual() && rhs.isNumber() || lhs.isNumber() && rhs.isTextual())) {
            JsonNode text = lhs.isTextual() ? lhs : rhs;
            double times = (lhs.isTextual() ? rhs : lhs).asDouble();
            if (times >= 2) {
                budget.boundText(
                        (long) Math.min(Long.MAX_VALUE / 4, text.textValue().length() * Math.floor(times)));
            }
            return;
        }
        if (!lhs.isContainerNode() && !rhs.isContainerNode() || "//".equals(image)) {
            return;
        }
        if (COMPARISONS.contains(image) && !(lhs.isContainerNode() && rhs.isContainerNode())) {
            return; // a container against a scalar is decided by type alone
        }
        if ("+".equals(image) && (lhs.isNull() || rhs.isNull() || lhs.getNodeType() == rhs.getNodeType())) {
            return; // concatenation or shallow merge, sized when emitted
        }
        if ("-".equals(image) && lhs.isArray() && rhs.isArray()) {
            budget.steps((long) lhs.size() * rhs.size());
        }
        budget.walkable(lhs);
        budget.walkable(rhs);
    }

    @Override
    public String image() {
        return image;
    }
}
