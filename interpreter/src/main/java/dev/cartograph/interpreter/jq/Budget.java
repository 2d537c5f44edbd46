package dev.cartograph.interpreter.jq;

/**
 * The running budget of one evaluation, bound to the evaluating thread while it runs. Every builtin
 * function call and every value a builtin emits ticks it, so generators such as {@code range} and
 * recursive definitions cannot run past the deadline. Not thread-safe: one per evaluation.
 */
final class Budget {
    private static final ThreadLocal<Budget> CURRENT = new ThreadLocal<>();

    private final long deadlineNanos;
    private final long timeoutMillis;
    private long ticks;
    private boolean exhausted;

    private Budget(long timeoutNanos) {
        this.deadlineNanos = System.nanoTime() + timeoutNanos;
        this.timeoutMillis = timeoutNanos / 1_000_000;
    }

    static Budget open(JqLimits limits) {
        Budget budget = new Budget(limits.timeout().toNanos());
        CURRENT.set(budget);
        return budget;
    }

    static void close() {
        CURRENT.remove();
    }

    /** Ticks the budget of the current thread, if an evaluation is running on it. */
    static void tickCurrent() {
        Budget budget = CURRENT.get();
        if (budget != null) {
            budget.tick();
        }
    }

    void tick() {
        if (exhausted) {
            throw new BudgetExceeded("evaluation exceeded its time budget of " + timeoutMillis + " ms");
        }
        if ((++ticks & 0xFF) == 0 && System.nanoTime() - deadlineNanos > 0) {
            exhausted = true;
            throw new BudgetExceeded("evaluation exceeded its time budget of " + timeoutMillis + " ms");
        }
    }

    /**
     * Thrown through jackson-jq when a budget runs out. Unchecked on purpose: jq's {@code try} and
     * {@code ?} catch only query exceptions, so an expression cannot swallow its own time limit.
     */
    static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded(String message) {
            super(message, null, false, false);
        }
    }
}
