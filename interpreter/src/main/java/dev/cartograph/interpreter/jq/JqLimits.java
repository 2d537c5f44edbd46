package dev.cartograph.interpreter.jq;

import java.time.Duration;

/**
 * Bounds for one evaluation of a jq expression. Every jq construct (each expression applied, each
 * value it emits, each user {@code def} called) counts against them; exceeding any one ends that
 * evaluation with a budget error, and only that one. Immutable and thread-safe.
 *
 * <p>Values built while evaluating are sized as they are emitted: containers by their element count,
 * strings by their length, and the sum over an evaluation as estimated bytes ({@value #BYTES_PER_ELEMENT}
 * per element or node, {@value #BYTES_PER_CHARACTER} per character). Values read from the input are not
 * charged; results, and values handed to builtins that walk a whole value ({@code tojson},
 * {@code sort_by}, {@code ==} on containers…), are sized deeply so that structures sharing one value
 * many times cannot pass as small.
 *
 * @param timeout           wall-clock budget of one evaluation
 * @param maxResults        how many values one evaluation may emit
 * @param maxStringLength   the longest string any value built during an evaluation may be
 * @param maxSteps          how many steps (an expression applied, a value emitted, a comparison a sort
 *                          or search will make) one evaluation may take
 * @param maxElements       the most elements any array or object built during an evaluation may hold,
 *                          and the largest array index an assignment may create
 * @param maxAllocatedBytes estimated bytes of all values built during one evaluation, and the deep size
 *                          of any single value that is walked whole
 * @param maxDepth          how deeply calls and loops may nest: every call of a {@code def} or builtin,
 *                          iteration, reduction or operator counts while it runs, so one level of a
 *                          recursive {@code def} costs one or more and one turn of {@code until},
 *                          {@code while} or {@code recurse} about three (the catalog's definitions
 *                          need at most 53). jackson-jq recurses on the Java stack, where one such
 *                          level takes 0.7 to 3.5 KiB; the default stays below what a 1 MiB thread
 *                          stack holds, and a stack that runs out anyway ends as a budget error too
 */
public record JqLimits(
        Duration timeout,
        int maxResults,
        int maxStringLength,
        long maxSteps,
        int maxElements,
        long maxAllocatedBytes,
        int maxDepth) {

    /** Estimated bytes of one array element, object entry or node. */
    public static final int BYTES_PER_ELEMENT = 16;
    /** Estimated bytes of one character of a string or object key (Java keeps Latin-1 text in one byte). */
    public static final int BYTES_PER_CHARACTER = 1;

    private static final long DEFAULT_STEPS = 2_000_000;
    private static final int DEFAULT_ELEMENTS = 1 << 20;
    private static final long DEFAULT_BYTES = 64L << 20;
    private static final int DEFAULT_DEPTH = 200;

    /**
     * Generous for definitions (the catalog's take tens to hundreds of steps and a few kilobytes per
     * object), tight enough that a runaway stops within milliseconds to a few hundred: 500 ms, 10,000
     * results, strings of 4 Mi characters, 2 million steps, 1 Mi elements, 64 MiB, 200 nested calls.
     */
    public static final JqLimits DEFAULT = new JqLimits(
            Duration.ofMillis(500), 10_000, 1 << 22, DEFAULT_STEPS, DEFAULT_ELEMENTS, DEFAULT_BYTES, DEFAULT_DEPTH);

    public JqLimits {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxResults < 1 || maxStringLength < 1) {
            throw new IllegalArgumentException("maxResults and maxStringLength must be positive");
        }
        if (maxSteps < 1 || maxElements < 1 || maxAllocatedBytes < 1 || maxDepth < 1) {
            throw new IllegalArgumentException(
                    "maxSteps, maxElements, maxAllocatedBytes and maxDepth must be positive");
        }
    }

    /** The given time, result and string bounds, and {@link #DEFAULT}'s for the rest. */
    public JqLimits(Duration timeout, int maxResults, int maxStringLength) {
        this(timeout, maxResults, maxStringLength, DEFAULT_STEPS, DEFAULT_ELEMENTS, DEFAULT_BYTES, DEFAULT_DEPTH);
    }

    public JqLimits withTimeout(Duration timeout) {
        return new JqLimits(timeout, maxResults, maxStringLength, maxSteps, maxElements, maxAllocatedBytes, maxDepth);
    }

    public JqLimits withMaxSteps(long maxSteps) {
        return new JqLimits(timeout, maxResults, maxStringLength, maxSteps, maxElements, maxAllocatedBytes, maxDepth);
    }

    public JqLimits withMaxElements(int maxElements) {
        return new JqLimits(timeout, maxResults, maxStringLength, maxSteps, maxElements, maxAllocatedBytes, maxDepth);
    }

    public JqLimits withMaxAllocatedBytes(long maxAllocatedBytes) {
        return new JqLimits(timeout, maxResults, maxStringLength, maxSteps, maxElements, maxAllocatedBytes, maxDepth);
    }

    public JqLimits withMaxDepth(int maxDepth) {
        return new JqLimits(timeout, maxResults, maxStringLength, maxSteps, maxElements, maxAllocatedBytes, maxDepth);
    }
}
