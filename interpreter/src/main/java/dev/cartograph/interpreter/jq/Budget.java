package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * The running budget of one evaluation, bound to the evaluating thread while it runs. Metered
 * expressions ({@link Metered}), builtins ({@link BoundedFunction}) and operators
 * ({@link GuardedOperator}) charge it; whichever of {@link JqLimits}' bounds is passed first ends the
 * evaluation with {@link BudgetExceeded}. Not thread-safe: one per evaluation, used by its thread only.
 */
final class Budget {
    private static final ThreadLocal<Budget> CURRENT = new ThreadLocal<>();
    /** The clock is read once per this many steps, or this many bytes allocated. */
    private static final int CHECK_EVERY_STEPS = 256;

    private static final long CHECK_EVERY_BYTES = 1 << 16;

    private final Budget previous;
    private JqLimits limits;
    private long deadlineNanos;
    private long steps;
    private long nextCheckAtStep;
    private long allocatedBytes;
    private long nextCheckAtBytes;
    private int depth;
    private int deepest;
    private String exhausted;
    private boolean active;
    private boolean builtContainers;

    private Budget(Budget previous) {
        this.previous = previous;
    }

    /**
     * Starts a budget on this thread; {@link #close()} it in a finally block. Each thread reuses one
     * budget between evaluations; an evaluation started while another runs on the thread gets its own.
     */
    static Budget open(JqLimits limits) {
        Budget budget = CURRENT.get();
        if (budget == null || budget.active) {
            budget = new Budget(budget);
            CURRENT.set(budget);
        }
        budget.start(limits);
        return budget;
    }

    private void start(JqLimits limits) {
        this.limits = limits;
        this.deadlineNanos = System.nanoTime() + limits.timeout().toNanos();
        this.steps = 0;
        this.nextCheckAtStep = nextCheck(0);
        this.allocatedBytes = 0;
        this.nextCheckAtBytes = CHECK_EVERY_BYTES;
        this.depth = 0;
        this.deepest = 0;
        this.exhausted = null;
        this.builtContainers = false;
        this.active = true;
    }

    /** Ends this budget, restoring the one it interrupted, if any. */
    void close() {
        active = false;
        if (previous != null) {
            CURRENT.set(previous);
        }
    }

    /** The budget of the evaluation running on this thread; null outside evaluations. */
    static Budget current() {
        Budget budget = CURRENT.get();
        return budget != null && budget.active ? budget : null;
    }

    JqLimits limits() {
        return limits;
    }

    /** The deepest nesting this evaluation reached. */
    int deepest() {
        return deepest;
    }

    /** One step: an expression applied or a value emitted. */
    void step() {
        if (++steps >= nextCheckAtStep) {
            checkpoint();
        }
    }

    /** Charges {@code count} steps at once, for a builtin whose work is known before it runs. */
    void steps(long count) {
        steps += count;
        if (steps >= nextCheckAtStep) {
            checkpoint();
        }
    }

    /** An application starts: one step, one level deeper. Pair with {@link #leave()}. */
    void enter() {
        step();
        if (++depth > deepest) {
            deepest = depth;
            if (depth > limits.maxDepth()) {
                exceed("evaluation exceeded its recursion budget of " + limits.maxDepth() + " nested calls");
            }
        }
    }

    void leave() {
        depth--;
    }

    /**
     * True once this evaluation has built an array or object: before that, every container it holds
     * came from the input, which is a tree, so none needs walking to learn its size.
     */
    boolean builtContainers() {
        return builtContainers;
    }

    /** A value was built: its own size is bounded, and it counts against the evaluation's allocation. */
    void built(JsonNode value) {
        if (value.isContainerNode()) {
            builtContainers = true;
            int size = value.size();
            if (size > limits.maxElements()) {
                exceed("evaluation exceeded its allocation budget: an array or object of " + size
                        + " elements, more than " + limits.maxElements());
            }
            allocated((long) size * JqLimits.BYTES_PER_ELEMENT);
        } else if (value.isTextual()) {
            int length = value.textValue().length();
            boundText(length);
            allocated((long) length * JqLimits.BYTES_PER_CHARACTER);
        }
    }

    /** Checks a string of {@code length} characters may be built, before building it. */
    void boundText(long length) {
        if (length > limits.maxStringLength()) {
            exceed("evaluation exceeded its allocation budget: a string longer than " + limits.maxStringLength()
                    + " characters");
        }
    }

    /** One element added to an array being collected, the {@code count}th. */
    void collected(long count) {
        builtContainers = true;
        if (count > limits.maxElements()) {
            exceed("evaluation exceeded its allocation budget: an array of more than " + limits.maxElements()
                    + " elements");
        }
        allocated(JqLimits.BYTES_PER_ELEMENT);
    }

    void allocated(long bytes) {
        allocatedBytes += bytes;
        if (allocatedBytes > limits.maxAllocatedBytes()) {
            exceed("evaluation exceeded its allocation budget of " + limits.maxAllocatedBytes()
                    + " bytes of values built");
        }
        if (allocatedBytes >= nextCheckAtBytes) {
            nextCheckAtBytes = allocatedBytes + CHECK_EVERY_BYTES;
            checkpoint();
        }
    }

    /**
     * Bounds the deep size of a value that a builtin is about to walk whole (serialize, compare,
     * sort, print into an error): values that share one node many times are as large as their
     * expansion. Costs at most the bound, and nothing for scalars or before this evaluation has built
     * any container.
     */
    void walkable(JsonNode value) {
        if (!value.isContainerNode() || !builtContainers) {
            return; // scalars, and containers of the input, which is a tree no larger than the caller took in
        }
        long bytes = 0;
        long bound = limits.maxAllocatedBytes();
        ArrayDeque<JsonNode> pending = new ArrayDeque<>();
        pending.push(value);
        while (!pending.isEmpty()) {
            JsonNode node = pending.pop();
            bytes += JqLimits.BYTES_PER_ELEMENT;
            if (node.isTextual()) {
                bytes += (long) node.textValue().length() * JqLimits.BYTES_PER_CHARACTER;
            } else if (node.isArray()) {
                node.forEach(pending::push);
            } else if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    bytes += (long) e.getKey().length() * JqLimits.BYTES_PER_CHARACTER;
                    pending.push(e.getValue());
                }
            }
            if (bytes > bound) {
                exceed("evaluation exceeded its allocation budget: a value larger than " + bound
                        + " bytes when expanded");
            }
        }
    }

    private void checkpoint() {
        if (exhausted != null) {
            throw new BudgetExceeded(exhausted);
        }
        if (steps > limits.maxSteps()) {
            exceed("evaluation exceeded its time budget of " + limits.maxSteps() + " steps");
        }
        if (System.nanoTime() - deadlineNanos > 0) {
            exceed("evaluation exceeded its time budget of " + limits.timeout().toMillis() + " ms");
        }
        nextCheckAtStep = nextCheck(steps);
    }

    /** The step at which to look at the clock next: every {@value #CHECK_EVERY_STEPS}, and just past the last allowed. */
    private long nextCheck(long from) {
        long next = from + CHECK_EVERY_STEPS;
        return limits.maxSteps() < next ? limits.maxSteps() + 1 : next;
    }

    /** Ends the evaluation; every later charge fails the same way, whatever catches this one. */
    void exceed(String message) {
        exhausted = message;
        nextCheckAtStep = 0;
        throw new BudgetExceeded(message);
    }

    /**
     * Thrown through jackson-jq when a budget runs out. Unchecked and not a {@code JsonQueryException}
     * on purpose: jq's {@code try} and {@code ?} catch only query exceptions, so an expression cannot
     * swallow its own limit.
     */
    static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded(String message) {
            super(message, null, false, false);
        }
    }
}
