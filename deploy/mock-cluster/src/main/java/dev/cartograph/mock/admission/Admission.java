package dev.cartograph.mock.admission;

import java.util.List;
import java.util.Optional;

/**
 * The validating admission a member's API server applies to creates and updates (reads, deletes and subresources such
 * as {@code status} are not reviewed, as a webhook rule on {@code pytorchjobs} does not see {@code pytorchjobs/status}):
 * the first rule that matches denies. Immutable; thread-safe.
 */
public record Admission(List<AdmissionRule> rules) {
    /** Admits everything. */
    public static final Admission NONE = new Admission(List.of());

    public Admission {
        rules = List.copyOf(rules);
    }

    public static Admission of(List<AdmissionRule> rules) {
        return rules.isEmpty() ? NONE : new Admission(rules);
    }

    public boolean admitsEverything() {
        return rules.isEmpty();
    }

    /** The denial of {@code operation} on a {@code kind} object in {@code namespace}; empty when admitted. */
    public Optional<AdmissionDenial> review(AdmissionRule.Operation operation, String kind, String namespace) {
        return rules.stream()
                .filter(r -> r.matches(operation, kind, namespace))
                .findFirst()
                .map(r -> new AdmissionDenial(r.webhook(), r.message()));
    }
}
