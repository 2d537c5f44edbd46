package dev.cartograph.simulator.schedule;

import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Binds pending pods to nodes where they fit, like a gang-aware kube-scheduler without scoring
 * plugins: per node, free = allocatable − requests of the non-terminal pods already bound there;
 * nodes that are not ready, unschedulable, off the node selector or tainted against the pod are
 * skipped; among fitting nodes the tightest fit wins (least GPU, then CPU, left free), which packs
 * whole nodes for later gangs. A gang binds all its pending pods or none.
 * Pure and thread-safe.
 */
public final class Scheduler {
    private static final Comparator<Map.Entry<String, ResourceList>> TIGHTEST = Comparator.comparing(
                    (Map.Entry<String, ResourceList> e) -> e.getValue().get(ResourceList.GPU))
            .thenComparing(e -> e.getValue().get(ResourceList.CPU))
            .thenComparing(Map.Entry::getKey);

    private Scheduler() {}

    /**
     * Decides every pending pod, workload by workload in the given order (earlier workloads take
     * capacity first; a workload that does not fit does not block the ones after it).
     *
     * @param used per node name, the requests (with one {@code pods} slot each) of the non-terminal pods bound there
     */
    public static List<ScheduleResult> schedule(
            List<NodeInfo> nodes, Map<String, ResourceList> used, List<Request> requests) {
        Map<String, NodeInfo> byName = new TreeMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        Map<String, ResourceList> free = new TreeMap<>();
        byName.forEach((name, n) -> free.put(name, n.allocatable().minus(used.getOrDefault(name, ResourceList.EMPTY))));
        List<ScheduleResult> out = new ArrayList<>();
        for (Request request : requests) {
            boolean gangsBound = true;
            for (int g = 0; g < request.gangs().size(); g++) {
                List<ScheduleResult> decisions =
                        gang(request.label() + " gang " + g, request.gangs().get(g), byName, free);
                gangsBound &= decisions.stream().allMatch(d -> d instanceof ScheduleResult.Bind);
                out.addAll(decisions);
            }
            for (PendingPod pod : request.loose()) {
                out.add(
                        gangsBound
                                ? single(pod, byName, free)
                                : new ScheduleResult.Unschedulable(
                                        pod.pod(),
                                        "waiting for the gang of " + request.label() + " to be bound first"));
            }
        }
        return out;
    }

    private static List<ScheduleResult> gang(
            String label, List<PendingPod> pods, Map<String, NodeInfo> nodes, Map<String, ResourceList> free) {
        Map<String, ResourceList> trial = new TreeMap<>(free);
        List<ScheduleResult> binds = new ArrayList<>();
        for (PendingPod pod : pods) {
            ScheduleResult d = single(pod, nodes, trial);
            if (d instanceof ScheduleResult.Unschedulable u) {
                String why = label + " needs all " + pods.size() + " pending pods bound at once; " + binds.size()
                        + " fit before " + pod.pod().name() + " did not: " + u.message();
                return pods.stream()
                        .map(p -> (ScheduleResult) new ScheduleResult.Unschedulable(p.pod(), why))
                        .toList();
            }
            binds.add(d);
        }
        free.putAll(trial);
        return binds;
    }

    /** Binds one pod on {@code free} (updated on success) or says why no node takes it. */
    private static ScheduleResult single(PendingPod pod, Map<String, NodeInfo> nodes, Map<String, ResourceList> free) {
        Map<Misfit, Integer> misfits = new EnumMap<>(Misfit.class);
        Map<String, BigDecimal> mostFree = new LinkedHashMap<>();
        Map<String, ResourceList> fitting = new TreeMap<>();
        for (NodeInfo node : nodes.values()) {
            ResourceList f = free.get(node.name());
            Optional<Misfit> misfit = NodeFit.misfit(node, f, pod);
            if (misfit.isEmpty()) {
                fitting.put(node.name(), f.minus(pod.withSlot()));
                continue;
            }
            misfits.merge(misfit.get(), 1, Integer::sum);
            if (misfit.get() == Misfit.INSUFFICIENT) {
                NodeFit.lacking(f, pod).forEach(r -> mostFree.merge(r, NodeFit.orZero(f.get(r)), BigDecimal::max));
            }
        }
        Optional<Map.Entry<String, ResourceList>> best =
                fitting.entrySet().stream().min(TIGHTEST);
        if (best.isPresent()) {
            free.put(best.get().getKey(), best.get().getValue());
            return new ScheduleResult.Bind(pod.pod(), best.get().getKey());
        }
        return new ScheduleResult.Unschedulable(pod.pod(), explain(nodes.size(), misfits, mostFree, pod));
    }

    /** {@code 0/2 nodes are available: 2 node(s) had too little free nvidia.com/gpu (needs 4, most free 3)}. */
    private static String explain(
            int nodeCount, Map<Misfit, Integer> misfits, Map<String, BigDecimal> mostFree, PendingPod pod) {
        if (nodeCount == 0) {
            return "0/0 nodes are available: the cluster has no nodes";
        }
        List<String> parts = new ArrayList<>();
        misfits.forEach((misfit, count) -> {
            String detail = "";
            if (misfit == Misfit.INSUFFICIENT) {
                List<String> lacks = new ArrayList<>();
                mostFree.forEach((r, amount) -> lacks.add(r + " (needs "
                        + Quantity.format(pod.withSlot().get(r)) + ", most free " + Quantity.format(amount) + ")"));
                detail = " " + String.join(", ", lacks);
            }
            parts.add(count + " " + misfit.words() + detail);
        });
        return "0/" + nodeCount + " nodes are available: " + String.join("; ", parts);
    }
}
