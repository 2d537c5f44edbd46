package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One {@link PodDemand} worked out once per decision, whatever the cluster: what each pod takes (its
 * requests plus one pod slot; {@code exact} the same in {@link Units}, or null) and whether its
 * constraints name particular nodes. Immutable.
 */
record Need(PodDemand demand, ResourceList request, long[] exact, long gpus, long cpu, boolean namesNodes) {
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
                NodeFilter.namesNodes(d.constraints()));
    }

    static List<Need> of(List<PodDemand> demand) {
        return demand.stream().map(Need::of).toList();
    }
}
