package dev.cartograph.simulator.pods;

import dev.cartograph.interpreter.view.InstanceView;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One pod a workload should have: its name, where it belongs (component, instance, index within
 * the instance), the gang it is part of (its number within its gang group, when in one), and the
 * instance it is made from. Immutable.
 */
public record PlannedPod(String name, String component, InstanceView instance, int index, OptionalInt gang) {
    public PlannedPod {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(gang, "gang");
    }

    public PlannedPod inGang(int number) {
        return new PlannedPod(name, component, instance, index, OptionalInt.of(number));
    }
}
