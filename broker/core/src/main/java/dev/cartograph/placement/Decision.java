package dev.cartograph.placement;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The planner's answer, explained per cluster. Immutable. */
public sealed interface Decision {
    List<Verdict> clusters();

    /**
     * The gang fits on {@code cluster}; every pod has a node. {@code pin}: node labels its pods must have there (the
     * topology domain it was placed in; empty when none was asked for).
     */
    record Placed(String cluster, List<Assignment> assignments, List<Verdict> clusters, Map<String, String> pin)
            implements Decision {
        public Placed {
            assignments = List.copyOf(assignments);
            clusters = List.copyOf(clusters);
            pin = Map.copyOf(pin);
        }

        public Placed(String cluster, List<Assignment> assignments, List<Verdict> clusters) {
            this(cluster, assignments, clusters, Map.of());
        }
    }

    /** Fits nowhere now; each verdict says why, with numbers. */
    record Unschedulable(List<Verdict> clusters) implements Decision {
        public Unschedulable {
            clusters = List.copyOf(clusters);
        }
    }

    default Optional<String> chosen() {
        return this instanceof Placed p ? Optional.of(p.cluster()) : Optional.empty();
    }

    /** One pod of one component instance, on one node. */
    record Assignment(String component, String instance, int pod, String node) {}

    /** Whether one cluster fits, why not, and its score under the policy (lower is better). */
    record Verdict(String cluster, boolean fits, String reason, long score) {}
}
