package dev.cartograph.simulator.schedule;

/** What the scheduler decided for one pending pod. Immutable. */
public sealed interface Decision {
    PodRef pod();

    /** Bind the pod to {@code node}. */
    record Bind(PodRef pod, String node) implements Decision {
    }

    /** Leave the pod pending; {@code message} says why, with the numbers. */
    record Unschedulable(PodRef pod, String message) implements Decision {
    }
}
