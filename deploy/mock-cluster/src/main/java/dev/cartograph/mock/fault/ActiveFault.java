package dev.cartograph.mock.fault;

import dev.cartograph.mock.rbac.RequestAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;

/**
 * A {@link FaultRule} a server applies now, and what it did so far: how often it fired, whether it is still active
 * (not removed, not spent, not past its duration). Thread-safe: one lock per rule.
 */
public final class ActiveFault {
    private final FaultRule rule;
    private final Clock clock;
    private final Optional<Instant> until;
    private final Random random;
    private int fired;
    private boolean removed;

    ActiveFault(FaultRule rule, Clock clock) {
        this.rule = rule;
        this.clock = clock;
        this.until = rule.lasting().map(clock.instant()::plus);
        this.random = new Random(rule.seed());
    }

    public FaultRule rule() {
        return rule;
    }

    /** How many requests it answered so far. */
    public synchronized int fired() {
        return fired;
    }

    /** Whether it may still fire: not removed, fewer firings than its limit, its duration not over. */
    public synchronized boolean isActive() {
        return !removed
                && (rule.maxFirings().isEmpty() || fired < rule.maxFirings().getAsInt())
                && until.map(clock.instant()::isBefore).orElse(true);
    }

    /** Whether it fires on {@code request} (and counts it when it does). */
    synchronized boolean fires(RequestAttributes request) {
        if (!isActive() || !rule.match().matches(request)) {
            return false;
        }
        if (rule.probability() < 1 && random.nextDouble() >= rule.probability()) {
            return false;
        }
        fired++;
        return true;
    }

    synchronized void remove() {
        removed = true;
    }

    @Override
    public String toString() {
        return "ActiveFault[" + rule.name() + ", fired " + fired() + "]";
    }
}
