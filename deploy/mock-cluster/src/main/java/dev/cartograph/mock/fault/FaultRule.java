package dev.cartograph.mock.fault;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * When a server answers with a {@link Fault}: for requests {@link RequestMatch matching}, with a probability drawn
 * from a {@code java.util.Random} seeded with {@code seed} (one per rule, drawn once per matching request, so a run
 * repeats), at most {@code maxFirings} times, for {@code lasting} after it is added; whichever ends first removes it.
 * Immutable; thread-safe. {@link Faults#add} makes it active.
 *
 * <pre>{@code
 * FaultRule.on(RequestMatch.verbs("update").resource("coordination.k8s.io", "leases"), Fault.throttle(1))
 *         .named("lease-renewals-throttled")
 *         .withProbability(0.3, 42)
 *         .forDuration(Duration.ofSeconds(20));
 * }</pre>
 *
 * @param name        what the request log calls it ({@code rule}); the fault's kind unless named
 * @param probability in (0, 1]; 1 fires on every matching request
 * @param maxFirings  empty: no limit
 * @param lasting     empty: until removed
 */
public record FaultRule(
        String name,
        RequestMatch match,
        Fault fault,
        double probability,
        long seed,
        OptionalInt maxFirings,
        Optional<Duration> lasting) {
    public FaultRule {
        if (name.isBlank()) {
            throw new IllegalArgumentException("a fault rule's name must not be blank");
        }
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(fault, "fault");
        if (fault instanceof Fault.StaleList && !match.verbs().equals(java.util.Set.of("list"))) {
            throw new IllegalArgumentException(
                    "a stale list is served only to lists: match RequestMatch.verbs(\"list\"), not " + match.verbs());
        }
        if (!(probability > 0 && probability <= 1)) {
            throw new IllegalArgumentException("a probability is in (0, 1], was " + probability);
        }
        if (maxFirings.isPresent() && maxFirings.getAsInt() < 1) {
            throw new IllegalArgumentException("a rule fires at least once, was " + maxFirings.getAsInt());
        }
        if (lasting.isPresent() && (lasting.get().isNegative() || lasting.get().isZero())) {
            throw new IllegalArgumentException("a rule lasts a positive time, was " + lasting.get());
        }
    }

    /** {@code fault} on every request {@code match} matches, until removed; named for the fault's kind. */
    public static FaultRule on(RequestMatch match, Fault fault) {
        return new FaultRule(fault.kind(), match, fault, 1, 0, OptionalInt.empty(), Optional.empty());
    }

    public FaultRule named(String newName) {
        return new FaultRule(newName, match, fault, probability, seed, maxFirings, lasting);
    }

    /** Fires on a matching request with {@code newProbability}, drawn from a {@code Random} seeded with {@code newSeed}. */
    public FaultRule withProbability(double newProbability, long newSeed) {
        return new FaultRule(name, match, fault, newProbability, newSeed, maxFirings, lasting);
    }

    /** Fires at most {@code requests} times: on the next {@code requests} matching requests, at probability 1. */
    public FaultRule forNext(int requests) {
        return new FaultRule(name, match, fault, probability, seed, OptionalInt.of(requests), lasting);
    }

    /** Fires only during {@code duration} after it is added (by the server's clock). */
    public FaultRule forDuration(Duration duration) {
        return new FaultRule(name, match, fault, probability, seed, maxFirings, Optional.of(duration));
    }
}
