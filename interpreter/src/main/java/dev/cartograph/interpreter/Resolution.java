package dev.cartograph.interpreter;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.view.Identity;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.List;

/**
 * The outcome of resolving one object: a view (with any problems met on the way), no definition
 * for its kind, or an object too malformed to read. Never an exception. Immutable.
 */
public sealed interface Resolution {

    List<Problem> problems();

    /** The object was interpreted; {@code problems} names what could not be read (the rest is right). */
    record Resolved(WorkloadView view, List<Problem> problems) implements Resolution {
        public Resolved {
            problems = List.copyOf(problems);
        }
    }

    /** No definition covers this kind; {@code knownVersions} lists versions of the kind that are covered. */
    record NoDefinition(Identity identity, GroupVersionKind kind, List<String> knownVersions) implements Resolution {
        public NoDefinition {
            knownVersions = List.copyOf(knownVersions);
        }

        @Override
        public List<Problem> problems() {
            String hint =
                    knownVersions.isEmpty() ? "" : " (definitions exist for " + String.join(", ", knownVersions) + ")";
            return List.of(Problem.error(
                    identity.describe(),
                    "apiVersion",
                    "no definition for " + kind + hint + "; add one with --definitions or a Karta in the cluster"));
        }
    }

    /**
     * The input is not a Kubernetes object Cartograph can read, or it asks for amounts no cluster
     * could honour (a quantity or replica count that is negative, not a number, or beyond
     * {@link dev.cartograph.interpreter.resources.Ceilings}); {@code problems} lists every one, by field.
     */
    record Invalid(List<Problem> problems) implements Resolution {
        public Invalid {
            problems = List.copyOf(problems);
        }
    }
}
