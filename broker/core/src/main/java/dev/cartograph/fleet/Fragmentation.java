package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * How fragmented each cluster's free GPUs are, at a glance: of its nodes with GPUs, how many have 0, 1, 2 … GPUs free
 * ({@code byFree[k]}: nodes with k free; counted as {@link FleetReport} counts them), and how many cannot take a pod
 * (not ready, cordoned, or on a cluster that is not ready). The dashboard's overview draws it per cluster without
 * sending every node. Pure; immutable.
 */
public record Fragmentation(String cluster, long[] byFree, long unusable) {
    public Fragmentation {
        byFree = byFree.clone();
    }

    @Override
    public long[] byFree() {
        return byFree.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fragmentation f
                && cluster.equals(f.cluster)
                && Arrays.equals(byFree, f.byFree)
                && unusable == f.unusable;
    }

    @Override
    public int hashCode() {
        return cluster.hashCode() * 31 + Arrays.hashCode(byFree);
    }

    @Override
    public String toString() {
        return cluster + " " + Arrays.toString(byFree) + " unusable " + unusable;
    }

    /** Per cluster, by name. */
    public static Map<String, Fragmentation> of(FleetSnapshot snapshot, Instant now, Duration heartbeatTimeout) {
        Map<String, Map<String, ResourceList>> booked = NodeGpus.bookedPerNode(snapshot);
        Map<String, Fragmentation> out = new TreeMap<>();
        for (ClusterSummary s : snapshot.clusters().values()) {
            boolean ready = snapshot.ready(s.cluster(), now, heartbeatTimeout);
            Map<String, ResourceList> clusterBooked = booked.getOrDefault(s.cluster(), Map.of());
            long most = 0;
            for (NodeState n : s.nodes()) {
                most = Math.max(most, n.allocatable().gpus());
            }
            long[] byFree = new long[(int) Math.min(most, 64) + 1];
            long unusable = 0;
            for (NodeState n : s.nodes()) {
                NodeGpus g = NodeGpus.of(n, ready, clusterBooked.getOrDefault(n.name(), ResourceList.EMPTY));
                if (g.total() == 0) {
                    continue;
                }
                if (!g.usable()) {
                    unusable++;
                } else {
                    byFree[(int) Math.min(g.free(), byFree.length - 1)]++;
                }
            }
            out.put(s.cluster(), new Fragmentation(s.cluster(), byFree, unusable));
        }
        return out;
    }
}
