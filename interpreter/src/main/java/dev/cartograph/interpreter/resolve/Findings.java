package dev.cartograph.interpreter.resolve;

import dev.cartograph.interpreter.problem.Problem;
import java.util.ArrayList;
import java.util.List;

/**
 * Problems found while resolving one object. Most leave the rest of the view standing; a
 * {@link #reject rejected} amount (a quantity or replica count no cluster could honour) makes the
 * whole object unresolvable. Not thread-safe: one per resolution.
 */
final class Findings {
    private final String subject;
    private final String definition;
    private final List<Problem> problems = new ArrayList<>();
    private boolean rejected;

    Findings(String subject, String definition) {
        this.subject = subject;
        this.definition = definition;
    }

    void error(String field, String message) {
        problems.add(Problem.error(subject, where(field), message));
    }

    /** An error that makes the object unresolvable; resolution still goes on to find every other. */
    void reject(String field, String message) {
        rejected = true;
        error(field, message);
    }

    boolean rejected() {
        return rejected;
    }

    void warn(String field, String message) {
        problems.add(Problem.warning(subject, where(field), message));
    }

    List<Problem> problems() {
        return List.copyOf(problems);
    }

    private String where(String field) {
        return field.startsWith("spec.structureDefinition") || field.startsWith("spec.optimizationInstructions")
                ? "definition " + definition + " " + field
                : field;
    }
}
