package dev.cartograph.interpreter.view;

import java.util.Locale;
import java.util.Optional;

/**
 * The normalized lifecycle phases a definition maps a workload's status onto. Declared in
 * precedence order, highest first: when several match, {@link #choose} picks the earliest here.
 * Terminal and suspended states win over Degraded, which wins over Running, then Initializing;
 * {@link #UNDEFINED} only when nothing matched. This reproduces the {@code state} of every
 * recorded Workload Map STATE event.
 */
public enum Phase {
    FAILED("Failed"),
    COMPLETED("Completed"),
    SUSPENDED("Suspended"),
    SUSPENDING("Suspending"),
    RESUMING("Resuming"),
    DEGRADED("Degraded"),
    RUNNING("Running"),
    INITIALIZING("Initializing"),
    UNDEFINED("Undefined");

    private final String displayName;

    Phase(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The {@code statusMappings} key for this phase ({@code initializing}, …); none for Undefined. */
    public String mappingKey() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a display name or mapping key, case-insensitively. */
    public static Optional<Phase> parse(String text) {
        for (Phase p : values()) {
            if (p.displayName.equalsIgnoreCase(text)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The highest-precedence phase of those matched, or Undefined. */
    public static Phase choose(java.util.Collection<Phase> matched) {
        return matched.stream().min(Enum::compareTo).orElse(UNDEFINED);
    }

    @Override
    public String toString() {
        return displayName;
    }
}
