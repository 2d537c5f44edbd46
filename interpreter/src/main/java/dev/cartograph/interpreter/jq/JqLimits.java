package dev.cartograph.interpreter.jq;

import java.time.Duration;

/**
 * Bounds for one evaluation of a jq expression. Immutable and thread-safe.
 *
 * @param timeout    wall-clock budget of one evaluation
 * @param maxResults how many values one evaluation may emit
 * @param maxStringLength the longest string a single emitted value may be
 */
public record JqLimits(Duration timeout, int maxResults, int maxStringLength) {

    /** Generous for definitions (microseconds each on real objects), tight enough to stop runaways. */
    public static final JqLimits DEFAULT = new JqLimits(Duration.ofMillis(500), 10_000, 1 << 20);

    public JqLimits {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxResults < 1 || maxStringLength < 1) {
            throw new IllegalArgumentException("maxResults and maxStringLength must be positive");
        }
    }
}
