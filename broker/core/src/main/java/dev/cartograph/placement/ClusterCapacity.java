package dev.cartograph.placement;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.NodeState;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One cluster's nodes indexed by what is free on them, so a placement decision costs in proportion
 * to the kinds of node and the pods placed, not to the number of nodes. Usable nodes (ready, not
 * cordoned) are kept in {@link NodeGroup}s of alike nodes, found there by free GPUs or free CPU;
 * every node counts towards the cluster's totals (free GPUs, nodes left with part of their GPUs
 * free). Kept up to date node by node ({@link #put}, {@link #remove}) as agents report and the broker
 * reserves; planning only reads it ({@link Tentative}). Mutable; one writer, not thread-safe.
 */
public final class ClusterCapacity {
    private final Map<String, Slot> slots = new HashMap<>();
    private final Map<NodeGroup.Kind, NodeGroup> groups = new LinkedHashMap<>();
    /**
     * A group of each kind's hash, so a node finds its group without a kind made for it (a cluster's first summary
     * puts thousands of nodes of a few kinds); two kinds of one hash: the other is found through {@link #groups}.
     */
    private final Map<Integer, NodeGroup> byHash = new HashMap<>();
    /**
     * {@link Units} of the resource lists seen lately, by identity: nodes of one shape share their allocatable list,
     * and equal allocations often one list (as a reader decodes them). Bounded: cleared past {@value #UNITS_HELD}.
     */
    private final Map<ResourceList, long[]> units = new IdentityHashMap<>();

    private static final int UNITS_HELD = 256;
    private int usable;
    private long fragmented;
    private long freeGpus;

    /** The nodes as reported, nothing reserved. */
    public static ClusterCapacity of(Collection<NodeState> nodes) {
        ClusterCapacity c = new ClusterCapacity();
        for (NodeState n : nodes) {
            c.put(n, ResourceList.EMPTY);
        }
        return c;
    }

    /** Adds or replaces a node, with {@code reserved} booked on it by the broker beyond what its agent reports. */
    public void put(NodeState node, ResourceList reserved) {
        Objects.requireNonNull(reserved, "reserved");
        Slot old = slots.get(node.name());
        if (old != null) {
            delete(old);
        }
        NodeGroup group = null;
        if (node.ready() && node.schedulable()) {
            // a node put again (reserved changed) or changed in its amounts only keeps its group: no new kind made
            group = old != null
                            && old.group() != null
                            && groups.get(old.group().kind()) == old.group()
                            && old.group().kind().of(node)
                    ? old.group()
                    : group(node);
        }
        insert(Slot.of(node, reserved, group, this::units));
    }

    private long[] units(ResourceList r) {
        long[] u = units.get(r);
        if (u == null) {
            u = Units.of(r, false);
            if (u != null) { // not whole: worked out each time (the slot falls back to decimals then anyway)
                if (units.size() >= UNITS_HELD) {
                    units.clear();
                }
                units.put(r, u);
            }
        }
        return u;
    }

    /** Forgets a node (it left the cluster). */
    public void remove(String name) {
        Slot old = slots.get(name);
        if (old != null) {
            delete(old);
        }
    }

    /** The node of that name, as reported; null when there is none. */
    public NodeState node(String name) {
        Slot s = slots.get(name);
        return s == null ? null : s.node();
    }

    /** What the broker booked on the node beyond what its agent reports; empty when nothing or no such node. */
    public ResourceList reserved(String name) {
        Slot s = slots.get(name);
        return s == null ? ResourceList.EMPTY : s.reserved();
    }

    /** Every node, as reported (no order). */
    public Iterable<NodeState> nodes() {
        return () -> slots.values().stream().map(Slot::node).iterator();
    }

    public int size() {
        return slots.size();
    }

    /** Nodes that are ready and not cordoned. */
    public int usable() {
        return usable;
    }

    /** Free GPUs over all nodes (reservations taken off). */
    public long freeGpus() {
        return freeGpus;
    }

    /** Nodes with some but not all of their GPUs free. */
    public long fragmented() {
        return fragmented;
    }

    Slot slot(String name) {
        return slots.get(name);
    }

    Collection<NodeGroup> groups() {
        return groups.values();
    }

    private NodeGroup group(NodeState node) {
        int hash = NodeGroup.Kind.hashOf(node);
        NodeGroup known = byHash.get(hash);
        if (known != null && known.kind().of(node)) {
            return known;
        }
        Map<String, String> labels = node.labels();
        if (labels.containsKey(NodeFilter.HOSTNAME)) {
            labels = new HashMap<>(labels);
            labels.remove(NodeFilter.HOSTNAME);
        }
        NodeGroup group = groups.computeIfAbsent(new NodeGroup.Kind(labels, node.taints()), NodeGroup::new);
        byHash.putIfAbsent(group.kind().hashCode(), group);
        return group;
    }

    private void insert(Slot s) {
        slots.put(s.name(), s);
        if (s.group() != null) {
            s.group().add(s);
            usable++;
        }
        freeGpus += s.freeGpus();
        fragmented += s.fragmented() ? 1 : 0;
    }

    private void delete(Slot s) {
        slots.remove(s.name());
        if (s.group() != null) {
            s.group().remove(s);
            usable--;
            if (s.group().size() == 0) {
                groups.remove(s.group().kind());
                byHash.remove(s.group().kind().hashCode(), s.group());
            }
        }
        freeGpus -= s.freeGpus();
        fragmented -= s.fragmented() ? 1 : 0;
    }
}
