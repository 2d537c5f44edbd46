/**
 * jq for definitions, behind jackson-jq: {@link dev.cartograph.interpreter.jq.Jq} compiles,
 * {@link dev.cartograph.interpreter.jq.JqExpression} evaluates, and every evaluation is bounded by
 * {@link dev.cartograph.interpreter.jq.JqLimits}, because definitions are user input.
 *
 * <h2>How an evaluation is bounded</h2>
 * <ul>
 *   <li>{@code Metering} rewrites each compiled tree once: nodes that iterate ({@code .[]},
 *       {@code ..}), loop ({@code reduce}, {@code foreach}), run a {@code def}'s body, combine
 *       values pairwise ({@code ==}, {@code and}, arithmetic) or build values ({@code [...]},
 *       {@code {...}}, strings, assignments) are wrapped in {@code Metered}; pipes, commas,
 *       branches and field access are not, since their children are. Builtins written in jq are
 *       rewritten the same way when the engine loads; builtins written in Java are wrapped in
 *       {@code BoundedFunction}, operators in {@code GuardedOperator}.</li>
 *   <li>{@code Budget}, one per evaluation on its thread, counts steps (applications, emitted
 *       values, and the comparisons a sort or search will make), nesting, and the estimated bytes
 *       of values built; it bounds each built array, object and string, and the deep size of any
 *       value a builtin walks whole or a result that was built (so shared substructures cannot
 *       hide an exponential value). The clock is read every 256 steps.</li>
 *   <li>Exceeding a bound throws an unchecked exception that jq's {@code try} cannot catch; the
 *       evaluation's result carries it as an error naming the budget, and the thread goes on. A
 *       {@code StackOverflowError} (a stack smaller than the nesting bound assumes) ends the same
 *       way.</li>
 * </ul>
 *
 * <h2>What is not bounded</h2>
 * One call of a regular-expression builtin ({@code test}, {@code match}, {@code sub}…) on a
 * catastrophic pattern runs in joni without checkpoints; and two of jackson-jq's own type errors
 * (negating a container, using one as an object key) print the value whole without the deep-size
 * check the other error paths get. Both are bounded only by the sizes above.
 *
 * <p>jackson-jq has no hook for any of this, so {@code NodeShapes} pins the node classes and fields of
 * the jackson-jq it was written for and checks them when it loads; an upgrade that changes them
 * fails at startup and in {@code JqMeteringTest}, never silently unmetered.
 */
package dev.cartograph.interpreter.jq;
