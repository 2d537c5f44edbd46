package dev.cartograph.placement;

import dev.cartograph.interpreter.scheduling.Taint;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The usable nodes of one cluster that a pod cannot tell apart by its selector, affinity or
 * tolerations: the same labels (other than the hostname) and the same taints. Within the group,
 * nodes are kept by free GPUs and by free CPU (millicores), each set in name order, so the
 * planner finds the best node for a pod without looking at the others. Mutable; one writer.
 */
final class NodeGroup {
    /** What makes nodes alike to a pod. Immutable; its hash is worked out once (kinds are looked up per decision). */
    record Kind(Map<String, String> labels, List<Taint> taints, int hash) {
        Kind(Map<String, String> labels, List<Taint> taints) {
            this(Map.copyOf(labels), List.copyOf(taints), 31 * labels.hashCode() + taints.hashCode());
        }

        /**
         * The hash a kind made from {@code node} would have, worked out without making it (its labels' hash less the
         * hostname's entry, as {@link Map#hashCode} sums entries).
         */
        static int hashOf(dev.cartograph.protocol.NodeState node) {
            Map<String, String> l = node.labels();
            int labels = l.hashCode();
            String hostname = l.get(NodeFilter.HOSTNAME);
            if (hostname != null) {
                labels -= NodeFilter.HOSTNAME.hashCode() ^ hostname.hashCode();
            }
            return 31 * labels + node.taints().hashCode();
        }

        /** Whether the node is of this kind (its labels but the hostname, its taints), without making a kind. */
        boolean of(dev.cartograph.protocol.NodeState node) {
            Map<String, String> l = node.labels();
            int expected = labels.size() + (l.containsKey(NodeFilter.HOSTNAME) ? 1 : 0);
            if (l.size() != expected || !taints.equals(node.taints())) {
                return false;
            }
            for (Map.Entry<String, String> e : labels.entrySet()) {
                if (!e.getValue().equals(l.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Kind k && hash == k.hash && labels.equals(k.labels) && taints.equals(k.taints);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Nodes within a bucket, by name. */
    static final java.util.Comparator<Slot> BY_NAME = java.util.Comparator.comparing(Slot::name);

    private final Kind kind;
    private final TreeMap<Long, TreeSet<Slot>> byGpus = new TreeMap<>();
    private final TreeMap<Long, TreeSet<Slot>> byCpu = new TreeMap<>();
    private int size;
    /** Free amounts in {@link Units} summed over the group's nodes that have that form; how many do not. */
    private final long[] free = new long[4];

    private int inexact;
    /** How many of the group's nodes have GPUs (allocatable). */
    private int withGpus;

    NodeGroup(Kind kind) {
        this.kind = kind;
    }

    Kind kind() {
        return kind;
    }

    /** How many of its nodes have GPUs: a search for nodes without (or with) them skips a group of none. */
    int withGpus() {
        return withGpus;
    }

    int size() {
        return size;
    }

    void add(Slot s) {
        byGpus.computeIfAbsent(s.freeGpus(), k -> new TreeSet<>(BY_NAME)).add(s);
        byCpu.computeIfAbsent(s.freeCpu(), k -> new TreeSet<>(BY_NAME)).add(s);
        size++;
        withGpus += s.allGpus() > 0 ? 1 : 0;
        count(s, 1);
    }

    private void count(Slot s, int sign) {
        long[] u = s.units();
        if (u == null) {
            inexact += sign;
            return;
        }
        for (int i = 0; i < u.length; i++) {
            free[i] += sign * u[i];
        }
    }

    /** Free amounts in {@link Units} over the whole group; null when some node's have no such form. */
    long[] free() {
        return inexact > 0 ? null : free;
    }

    void remove(Slot s) {
        drop(byGpus, s.freeGpus(), s);
        drop(byCpu, s.freeCpu(), s);
        size--;
        withGpus -= s.allGpus() > 0 ? 1 : 0;
        count(s, -1);
    }

    private static void drop(TreeMap<Long, TreeSet<Slot>> index, long key, Slot s) {
        TreeSet<Slot> slots = index.get(key);
        if (slots != null && slots.remove(s) && slots.isEmpty()) {
            index.remove(key);
        }
    }

    /** Nodes by free GPUs, ascending. */
    NavigableMap<Long, TreeSet<Slot>> byGpus() {
        return byGpus;
    }

    /** Nodes by free CPU in millicores, ascending. */
    NavigableMap<Long, TreeSet<Slot>> byCpu() {
        return byCpu;
    }

    /** Every node in the group. */
    Iterable<Slot> slots() {
        return () -> byGpus.values().stream().flatMap(Collection::stream).iterator();
    }
}
