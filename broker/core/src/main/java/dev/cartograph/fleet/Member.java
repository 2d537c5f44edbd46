package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.ClusterCapacity;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One member cluster in the fleet: its newest summary, when it was received, what the broker has
 * reserved on its nodes, and its {@link ClusterCapacity} index with those reservations in. Every
 * change touches only the nodes it concerns — a summary's changed nodes, a reservation's nodes —
 * unless a reservation no longer fits where it was made and must be displaced ({@link
 * ReservedCapacity}), which looks at the whole cluster. Mutable; the fleet's one writer.
 */
final class Member {
    private ClusterSummary summary;
    private Instant received;
    private final Incarnations incarnations = new Incarnations();
    private final ClusterCapacity capacity = new ClusterCapacity();
    /** Reserved amounts per node, summed over the cluster's reservations, as the reservations name them. */
    private final TreeMap<String, ResourceList> reserved = new TreeMap<>();
    /** Where reservations count: {@link #reserved}, unless some are displaced. */
    private final Map<String, ResourceList> placed = new HashMap<>();

    private boolean displaced;
    /** {@link #placed} as last handed out, until it changes. */
    private Map<String, ResourceList> placedCopy = Map.of();

    private boolean placedChanged;

    ClusterSummary summary() {
        return summary;
    }

    /** The order this cluster's agent incarnations were first read in. */
    Incarnations incarnations() {
        return incarnations;
    }

    /** The summary {@link #gpusByModel} was counted from, and its count (counted again only for a newer summary). */
    private ClusterSummary countedFrom;

    private Map<String, Long> gpusByModel = Map.of();

    /** Allocatable GPUs per model ({@code nvidia.com/gpu.product}; {@code ""} without it) on the newest summary's nodes. */
    Map<String, Long> gpusByModel() {
        if (countedFrom != summary) {
            Map<String, Long> out = new TreeMap<>();
            for (NodeState n : summary.nodes()) {
                if (n.allocatable().gpus() > 0) {
                    out.merge(n.gpuProduct(), n.allocatable().gpus(), Long::sum);
                }
            }
            gpusByModel = Map.copyOf(out);
            countedFrom = summary;
        }
        return gpusByModel;
    }

    Instant received() {
        return received;
    }

    ClusterCapacity capacity() {
        return capacity;
    }

    /** Where reservations count now, per node (an immutable copy, made again only after a change). */
    Map<String, ResourceList> placed() {
        if (placedChanged) {
            placedCopy = Map.copyOf(placed);
            placedChanged = false;
        }
        return placedCopy;
    }

    /**
     * A newer summary: the nodes named in {@code changed} (added, changed or removed) are looked at
     * again; {@code null} means any may have changed, and each node is compared with the one held.
     * {@code released}: reservations (per node) the summary accounts for, taken off in the same step.
     */
    void summary(ClusterSummary s, Instant receivedAt, Set<String> changed, List<Map<String, ResourceList>> released) {
        this.summary = s;
        this.received = receivedAt;
        if (changed == null && capacity.size() == 0 && released.isEmpty()) {
            first(s.nodes()); // the cluster's first nodes (or its first since it had none): each is new
            return;
        }
        Set<String> look = new HashSet<>();
        for (Map<String, ResourceList> r : released) {
            add(r, -1);
            look.addAll(r.keySet());
        }
        Set<String> seen = new HashSet<>();
        for (NodeState n : s.nodes()) {
            if (changed == null) {
                seen.add(n.name());
                if (!n.equals(capacity.node(n.name()))) {
                    look.add(n.name());
                }
            } else if (changed.contains(n.name())) {
                seen.add(n.name());
                look.add(n.name());
            }
        }
        List<String> gone = new ArrayList<>();
        if (changed == null) {
            capacity.nodes().forEach(n -> {
                if (!seen.contains(n.name())) {
                    gone.add(n.name());
                }
            });
        } else {
            changed.stream().filter(name -> !seen.contains(name)).forEach(gone::add);
        }
        gone.forEach(capacity::remove);
        look.addAll(gone);
        for (NodeState n : s.nodes()) {
            if (look.contains(n.name())) {
                // with what counts on it now; put again below only if that changes
                capacity.put(n, placed.getOrDefault(n.name(), ResourceList.EMPTY));
            }
        }
        refresh(look);
    }

    /**
     * Takes every node into an empty index, as the general case would (each is added, with what counts on it now,
     * and looked at again), without the sets that find which nodes changed or left: none was held.
     */
    private void first(List<NodeState> nodes) {
        List<String> names = new ArrayList<>(nodes.size());
        for (NodeState n : nodes) {
            names.add(n.name());
            capacity.put(n, placed.getOrDefault(n.name(), ResourceList.EMPTY));
        }
        refresh(names);
    }

    /** Adds ({@code sign} 1) or takes back ({@code sign} -1) a reservation's amounts per node. */
    void reserve(Map<String, ResourceList> perNode, int sign) {
        add(perNode, sign);
        refresh(perNode.keySet());
    }

    private void add(Map<String, ResourceList> perNode, int sign) {
        perNode.forEach((node, amount) -> {
            ResourceList sum = reserved.getOrDefault(node, ResourceList.EMPTY);
            ResourceList next = sign > 0 ? sum.plus(amount) : sum.minus(amount);
            if (next.isEmpty()) {
                reserved.remove(node);
            } else {
                reserved.put(node, next);
            }
        });
    }

    /**
     * Works out where reservations count and puts every node whose share changed back into the index.
     * While nothing is displaced and each node in {@code nodes} (those whose node or reservation just
     * changed) still holds what is reserved on it, only those nodes can change.
     */
    private void refresh(Collection<String> nodes) {
        if (!displaced && reserved.isEmpty() && placed.isEmpty()) {
            return; // nothing reserved anywhere, nothing counted: no node's share can change
        }
        Set<String> redo = new HashSet<>();
        if (!displaced && nodes.stream().allMatch(this::holdsItsOwn)) {
            for (String name : nodes) {
                ResourceList r = reserved.get(name);
                ResourceList before = r == null ? placed.remove(name) : placed.put(name, r);
                if (r == null ? before != null : !r.equals(before)) {
                    redo.add(name);
                }
            }
        } else {
            Map<String, ResourceList> after = ReservedCapacity.extras(capacity::node, capacity.nodes(), reserved);
            placed.forEach((node, amount) -> {
                if (!amount.equals(after.get(node))) {
                    redo.add(node);
                }
            });
            after.forEach((node, amount) -> {
                if (!amount.equals(placed.get(node))) {
                    redo.add(node);
                }
            });
            placed.clear();
            placed.putAll(after);
            displaced = !after.equals(reserved);
        }
        placedChanged |= !redo.isEmpty();
        for (String name : redo) {
            NodeState n = capacity.node(name);
            if (n != null) {
                capacity.put(n, placed.getOrDefault(name, ResourceList.EMPTY));
            }
        }
    }

    /** Nothing reserved on the node, or the node exists and has room for all that is reserved on it. */
    private boolean holdsItsOwn(String name) {
        ResourceList r = reserved.get(name);
        if (r == null) {
            return true;
        }
        NodeState n = capacity.node(name);
        return n != null && r.fitsIn(n.allocatable().minus(n.allocated()));
    }
}
