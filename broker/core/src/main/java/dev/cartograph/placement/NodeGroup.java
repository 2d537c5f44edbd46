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
 * node names are kept by free GPUs and by free CPU (millicores), each set in name order, so the
 * planner finds the best node for a pod without looking at the others. Mutable; one writer.
 */
final class NodeGroup {
    /** What makes nodes alike to a pod. Immutable. */
    record Kind(Map<String, String> labels, List<Taint> taints) {
        Kind {
            labels = Map.copyOf(labels);
            taints = List.copyOf(taints);
        }
    }

    private final Kind kind;
    private final TreeMap<Long, TreeSet<String>> byGpus = new TreeMap<>();
    private final TreeMap<Long, TreeSet<String>> byCpu = new TreeMap<>();
    private int size;

    NodeGroup(Kind kind) {
        this.kind = kind;
    }

    Kind kind() {
        return kind;
    }

    int size() {
        return size;
    }

    void add(Slot s) {
        byGpus.computeIfAbsent(s.freeGpus(), k -> new TreeSet<>()).add(s.name());
        byCpu.computeIfAbsent(s.freeCpu(), k -> new TreeSet<>()).add(s.name());
        size++;
    }

    void remove(Slot s) {
        drop(byGpus, s.freeGpus(), s.name());
        drop(byCpu, s.freeCpu(), s.name());
        size--;
    }

    private static void drop(TreeMap<Long, TreeSet<String>> index, long key, String name) {
        TreeSet<String> names = index.get(key);
        if (names != null && names.remove(name) && names.isEmpty()) {
            index.remove(key);
        }
    }

    /** Node names by free GPUs, ascending. */
    NavigableMap<Long, TreeSet<String>> byGpus() {
        return byGpus;
    }

    /** Node names by free CPU in millicores, ascending. */
    NavigableMap<Long, TreeSet<String>> byCpu() {
        return byCpu;
    }

    /** Every node name in the group. */
    Iterable<String> names() {
        return () -> byGpus.values().stream().flatMap(Collection::stream).iterator();
    }
}
