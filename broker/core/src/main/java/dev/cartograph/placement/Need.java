package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One {@link PodDemand} worked out once per decision, whatever the cluster: what each pod takes (its
 * requests plus one pod slot; {@code exact} the same in {@link Units}, or null), whether its
 * constraints name particular nodes, how reasons name it ({@code what}) and say no node may run it
 * ({@code noneOfThem}), and which kinds of node it may use (a cache filled as asked).
 */
record Need(
        PodDemand demand,
        ResourceList request,
        long[] exact,
        long gpus,
        long cpu,
        boolean namesNodes,
        String what,
        String noneOfThem,
        Map<NodeGroup.Kind, Boolean> admitted) {
    private static final ResourceList ONE_POD =
            new ResourceList(new TreeMap<>(Map.of(ResourceList.PODS, BigDecimal.ONE)));

    /** Largest pods first (GPUs, then CPU, then memory), then by name: the order pods are placed in. */
    static final Comparator<Need> ORDER = Comparator.comparingLong((Need n) -> -n.gpus)
            .thenComparingLong(n -> -n.cpu)
            .thenComparingLong(n -> -n.request.memoryBytes())
            .thenComparing(n -> n.demand.component())
            .thenComparing(n -> n.demand.instance());

    static Need of(PodDemand d) {
        ResourceList request = d.perPod().plus(ONE_POD);
        return new Need(
                d,
                request,
                Units.of(request, true),
                request.gpus(),
                request.cpuMillis(),
                NodeFilter.namesNodes(d.constraints()),
                d.component() + (d.instance().equals(d.component()) ? "" : "/" + d.instance()),
                (d.constraints().nodeSelector().isEmpty()
                                ? ""
                                : "has labels " + Reasons.format(d.constraints().nodeSelector()) + " or ")
                        + "passes its node affinity and tolerations",
                new java.util.HashMap<>());
    }

    /** Whether its pods may run on nodes of this kind (worked out once per kind and decision). */
    boolean admits(NodeGroup.Kind kind) {
        return admitted.computeIfAbsent(kind, k -> demand.constraints().admits("", k.labels(), k.taints()));
    }

    static List<Need> of(List<PodDemand> demand) {
        return demand.stream().map(Need::of).toList();
    }
}
