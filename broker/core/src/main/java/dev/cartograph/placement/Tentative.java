package dev.cartograph.placement;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one planning attempt has taken on one cluster so far, node by node, over an index it leaves
 * unchanged: the touched nodes as they would be, and the cluster's totals adjusted for them. Mutable;
 * lives for one attempt.
 */
final class Tentative {
    private final ClusterCapacity capacity;
    private final Map<String, Touched> taken = new LinkedHashMap<>();
    private long fragmentedChange;
    private long gpusTaken;

    Tentative(ClusterCapacity capacity) {
        this.capacity = capacity;
    }

    Touched touched(String name) {
        return taken.get(name);
    }

    /** Names of the nodes taken on, in the order first taken. */
    Collection<String> touchedNames() {
        return taken.keySet();
    }

    /** What is free of one resource on a node as it stands in this attempt. */
    BigDecimal free(Slot s, String resource) {
        Touched t = taken.get(s.name());
        return t == null ? s.free().get(resource) : t.free(resource);
    }

    /** The node as this attempt sees it, touched from now on. */
    Touched take(Slot s) {
        return taken.computeIfAbsent(s.name(), k -> new Touched(s));
    }

    /** Takes {@code n} pods of {@code need} on a touched node. */
    void take(Touched t, Need need, long n) {
        boolean before = t.fragmented();
        t.take(need, n);
        fragmentedChange += (t.fragmented() ? 1 : 0) - (before ? 1 : 0);
        gpusTaken += need.gpus() * n;
    }

    long fragmented() {
        return capacity.fragmented() + fragmentedChange;
    }

    long freeGpus() {
        return capacity.freeGpus() - gpusTaken;
    }

    /** GPUs left free on the nodes taken on. */
    long leftOnTouched() {
        long left = 0;
        for (Touched t : taken.values()) {
            left += t.freeGpus();
        }
        return left;
    }
}
