package dev.cartograph.simulator.schedule;

/**
 * What the simulated kube-scheduler does with one pending pod: bind it to a node or leave it pending,
 * saying why. (Which cluster a whole gang goes to is the broker's question, {@code placement.Decision}.)
 * Immutable.
 */
public sealed interface ScheduleResult {
    PodRef pod();

    /** Bind the pod to {@code node}. */
    record Bind(PodRef pod, String node) implements ScheduleResult {}

    /** Leave the pod pending; {@code message} says why, with the numbers. */
    record Unschedulable(PodRef pod, String message) implements ScheduleResult {}
}
