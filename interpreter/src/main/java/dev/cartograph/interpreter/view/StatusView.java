package dev.cartograph.interpreter.view;

import java.util.List;
import java.util.Optional;

/**
 * The workload's normalized status: every phase whose mapping matched ({@code phases}, in
 * precedence order, {@code [Undefined]} when none did), the one chosen ({@code phase}), and the
 * raw phase and conditions it was read from. {@code errors} lists status expressions that failed
 * on this object (they count as not matching). Immutable.
 */
public record StatusView(
        Phase phase, List<Phase> phases, Optional<String> rawPhase, List<Condition> conditions, List<String> errors) {

    public StatusView {
        phases = List.copyOf(phases);
        conditions = List.copyOf(conditions);
        errors = List.copyOf(errors);
    }

    /** A status condition as the definition's field names read it. */
    public record Condition(String type, Optional<String> status, Optional<String> reason, Optional<String> message) {}
}
