package dev.cartograph.simulator.schedule;

import dev.cartograph.interpreter.resources.ResourceList;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What one pending pod asks of a node. {@code requests} excludes the pod slot, which {@link #withSlot} adds. Immutable. */
public record PodDemand(PodRef pod, ResourceList requests, Map<String, String> nodeSelector, List<Toleration> tolerations) {
    private static final ResourceList ONE_SLOT = new ResourceList(Map.of(ResourceList.PODS, BigDecimal.ONE));

    public PodDemand {
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(requests, "requests");
        nodeSelector = Map.copyOf(nodeSelector);
        tolerations = List.copyOf(tolerations);
    }

    /** The requests plus one pod slot, as the node's free amounts are counted. */
    public ResourceList withSlot() {
        return requests.plus(ONE_SLOT);
    }
}
