package dev.cartograph.simulator.pods;

import java.util.List;

/**
 * The pods a workload should have, and its gangs: each gang lists the names of the pods that must
 * be bound together. Pods in no gang are bound one by one. Immutable.
 */
public record WorkloadPlan(List<PlannedPod> pods, List<List<String>> gangs) {
    public WorkloadPlan {
        pods = List.copyOf(pods);
        gangs = gangs.stream().map(List::copyOf).toList();
    }

    public boolean inAnyGang(String podName) {
        return gangs.stream().anyMatch(g -> g.contains(podName));
    }
}
