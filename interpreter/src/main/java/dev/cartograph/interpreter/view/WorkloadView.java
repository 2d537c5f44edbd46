package dev.cartograph.interpreter.view;

import java.util.List;
import java.util.stream.Stream;

/**
 * Everything Cartograph understands about one workload object: its components and instances with
 * scale and per-pod resources, totals, gang and status. Immutable and thread-safe.
 *
 * @param definition the definition's name; {@code origin} where that definition came from
 * @param root       the root component, with its children below it
 */
public record WorkloadView(
        Identity identity,
        String definition,
        String origin,
        ComponentView root,
        Totals totals,
        Gang gang,
        StatusView status) {

    /** Every component, depth first from the root. */
    public Stream<ComponentView> components() {
        return root.flatten();
    }

    /** Every instance that makes pods. */
    public List<InstanceView> podInstances() {
        return components()
                .flatMap(c -> c.instances().stream())
                .filter(InstanceView::hasPods)
                .toList();
    }

    public Phase phase() {
        return status.phase();
    }
}
