package dev.cartograph.simulator.pods;

import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.Gang;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Works out the pods of a resolved workload: {@code desired} pods per pod-making instance, named
 * {@code <workload>-<component>[-<instance>]-<i>}, and its gangs from the view's gang groups (each
 * group repeated {@code count} times; gang {@code c} of a group takes pods
 * {@code c×n … c×n+n−1} of every member instance, {@code n} being the member's pods per gang).
 * Pure and thread-safe.
 */
public final class PodPlanner {
    private static final int MAX_NAME = 253;

    private PodPlanner() {}

    public static WorkloadPlan plan(WorkloadView view) {
        Map<String, PlannedPod> byKey = new LinkedHashMap<>();
        String workload = view.identity().name();
        for (ComponentView c : view.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (!i.hasPods()) {
                    continue;
                }
                for (int n = 0; n < i.replicas().desired(); n++) {
                    String name = podName(workload, c.name(), i.id(), n);
                    byKey.put(key(c.name(), i.id(), n), new PlannedPod(name, c.name(), i, n, OptionalInt.empty()));
                }
            }
        }
        List<List<String>> gangs = new ArrayList<>();
        for (Gang.Group group : view.gang().groups()) {
            for (int g = 0; g < group.count(); g++) {
                List<String> members = new ArrayList<>();
                for (Gang.Member m : group.members()) {
                    for (long j = 0; j < m.pods(); j++) {
                        String k = key(m.component(), m.instance(), (int) (g * m.pods() + j));
                        PlannedPod pod = byKey.get(k);
                        if (pod != null && pod.gang().isEmpty()) {
                            byKey.put(k, pod.inGang(g));
                            members.add(pod.name());
                        }
                    }
                }
                if (!members.isEmpty()) {
                    gangs.add(members);
                }
            }
        }
        return new WorkloadPlan(new ArrayList<>(byKey.values()), gangs);
    }

    /** A DNS subdomain name: lower case, other characters as '-', at most 253 characters. */
    static String podName(String workload, String component, String instance, int index) {
        String raw = workload + "-" + component + (instance.equals(component) ? "" : "-" + instance) + "-" + index;
        String name =
                raw.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-").replaceAll("^[^a-z0-9]+", "");
        return name.length() <= MAX_NAME ? name : name.substring(name.length() - MAX_NAME);
    }

    private static String key(String component, String instance, int index) {
        return component + "\u0000" + instance + "\u0000" + index;
    }
}
