package dev.cartograph.protocol;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shares what nodes have in common among the nodes a reader holds: nodes of one shape get the same taints
 * list and allocatable {@link ResourceList}, equal allocations the same list, and label keys and values the
 * same strings, so a fleet of a few node types costs a reader little more than each node's name, labels map
 * and allocation. Bounded: past {@value #MAX_ENTRIES} distinct parts it starts again (sharing is lost for
 * what was held, never correctness). Not thread-safe: one reader.
 */
public final class NodeParts {
    static final int MAX_ENTRIES = 200_000;

    private record Shape(List<Taint> taints, ResourceList allocatable) {}

    private final Map<Shape, Shape> shapes = new HashMap<>();
    private final Map<ResourceList, ResourceList> lists = new HashMap<>();
    private final Map<String, String> strings = new HashMap<>();

    /** {@code n} with its taints, allocatable, allocated and label strings replaced by shared equal instances. */
    public NodeState share(NodeState n) {
        if (shapes.size() + lists.size() + strings.size() > MAX_ENTRIES) {
            shapes.clear();
            lists.clear();
            strings.clear();
        }
        Shape shape = shapes.computeIfAbsent(new Shape(n.taints(), n.allocatable()), s -> s);
        Map<String, String> labels = new LinkedHashMap<>();
        n.labels().forEach((k, v) -> labels.put(string(k), ClusterRecordCodec.HOSTNAME.equals(k) ? v : string(v)));
        return new NodeState(
                n.name(),
                labels,
                shape.taints(),
                n.ready(),
                n.schedulable(),
                shape.allocatable(),
                n.allocated().isEmpty() ? ResourceList.EMPTY : lists.computeIfAbsent(n.allocated(), l -> l));
    }

    private String string(String s) {
        return strings.computeIfAbsent(s, x -> x);
    }
}
