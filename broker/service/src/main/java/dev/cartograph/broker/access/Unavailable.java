package dev.cartograph.broker.access;

/**
 * The identity source or authorizer could not answer (the hub unreachable, or refusing the broker's
 * own review). Never cached and never taken as an allow: the API answers 503 with {@code reason}.
 */
public record Unavailable(String reason) implements Authentication, Verdict {}
