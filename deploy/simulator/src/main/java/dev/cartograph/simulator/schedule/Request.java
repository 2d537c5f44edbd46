package dev.cartograph.simulator.schedule;

import java.util.List;

/**
 * The pending pods of one workload: its gangs, each bound all-or-nothing, and its loose pods,
 * bound one by one once every gang of the workload is bound (an elastic job's extra workers never
 * take capacity before its minimum is placed). {@code label} names the workload in reasons.
 * Immutable.
 */
public record Request(String label, List<List<PendingPod>> gangs, List<PendingPod> loose) {
    public Request {
        gangs = gangs.stream().map(List::copyOf).toList();
        loose = List.copyOf(loose);
    }
}
