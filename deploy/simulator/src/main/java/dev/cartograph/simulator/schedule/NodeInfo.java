package dev.cartograph.simulator.schedule;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the scheduler needs to know of a node. {@code allocatable} always holds a {@code pods}
 * amount (the kubelet default, 110, when the node states none). Immutable.
 */
public record NodeInfo(
        String name,
        Map<String, String> labels,
        ResourceList allocatable,
        List<Taint> taints,
        boolean ready,
        boolean unschedulable) {
    public static final long DEFAULT_POD_SLOTS = 110;

    public NodeInfo {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
        if (allocatable.get(ResourceList.PODS).signum() == 0) {
            allocatable = allocatable.plus(
                    new ResourceList(Map.of(ResourceList.PODS, BigDecimal.valueOf(DEFAULT_POD_SLOTS))));
        }
    }
}
