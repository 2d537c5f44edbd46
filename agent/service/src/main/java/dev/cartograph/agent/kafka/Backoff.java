package dev.cartograph.agent.kafka;

import java.time.Duration;

/** Waits between attempts: {@code first}, doubling up to {@code max}. Immutable. */
public record Backoff(Duration first, Duration max) {
    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10));

    public Backoff {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < first <= max");
        }
    }

    /** The wait after the {@code n}th failure in a row (n ≥ 1). */
    public Duration after(int n) {
        long ms = first.toMillis() << Math.min(Math.max(n - 1, 0), 20);
        return ms <= 0 || ms > max.toMillis() ? max : Duration.ofMillis(ms);
    }
}
