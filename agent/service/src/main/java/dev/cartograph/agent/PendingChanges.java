package dev.cartograph.agent;

import dev.cartograph.agent.kube.ClusterCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What changed on the cluster since the last publish: whether capacity did, and which workload keys. Informer
 * handlers and the command thread mark; the publishing thread takes, so many changes to one key between two
 * publishes make one record. Capacity starts changed (the first summary goes out at once). Thread-safe.
 */
final class PendingChanges {
    private final AtomicBoolean capacity = new AtomicBoolean(true);
    private final Set<ClusterCache.Change.Workload> workloads = ConcurrentHashMap.newKeySet();

    /** An informer's signal: every change may move capacity; a workload's also names its key. */
    void accept(ClusterCache.Change change) {
        if (change instanceof ClusterCache.Change.Workload w) {
            workloads.add(w);
        }
        capacity.set(true);
    }

    void capacityChanged() {
        capacity.set(true);
    }

    /** Whether capacity changed since the last call. */
    boolean takeCapacity() {
        return capacity.getAndSet(false);
    }

    /** The workload keys changed since the last call. */
    List<ClusterCache.Change.Workload> takeWorkloads() {
        List<ClusterCache.Change.Workload> batch = new ArrayList<>(workloads);
        workloads.removeAll(batch);
        return batch;
    }
}
