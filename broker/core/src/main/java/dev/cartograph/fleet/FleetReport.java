package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * GPU totals per cluster and GPU model, as {@code GET /api/v1/fleet} and {@code carto fleet} show
 * them: every node's GPUs ({@code total}), what the agent reports bound pods request
 * ({@code allocated}), what the broker has booked and the agent not yet accounted
 * ({@code reserved}), and what is left on ready, schedulable nodes ({@code free}, and the
 * {@code largestFreeBlock} on one node, which is what a multi-GPU pod needs). Pure; immutable.
 */
public record FleetReport(List<ClusterReport> clusters) {
    public FleetReport {
        clusters = List.copyOf(clusters);
    }

    /** One cluster: readiness by heartbeat, and one row per GPU model (nodes without GPUs under model ""). */
    public record ClusterReport(
            String name,
            Map<String, String> labels,
            boolean ready,
            Instant heartbeat,
            int nodes,
            List<ModelReport> models,
            int pending) {
        public ClusterReport {
            labels = Map.copyOf(labels);
            models = List.copyOf(models);
        }

        public long total() {
            return models.stream().mapToLong(ModelReport::total).sum();
        }

        public long free() {
            return models.stream().mapToLong(ModelReport::free).sum();
        }
    }

    public record ModelReport(
            String model, int nodes, long total, long allocated, long reserved, long free, long largestFreeBlock) {}

    /**
     * @param pendingByCluster gangs placed on a cluster whose pods are not all running yet (shown as pending)
     */
    public static FleetReport of(
            FleetSnapshot snapshot, Instant now, Duration heartbeatTimeout, Map<String, Integer> pendingByCluster) {
        Map<String, Map<String, ResourceList>> booked = NodeGpus.bookedPerNode(snapshot);
        List<ClusterReport> out = new ArrayList<>();
        for (ClusterSummary s : snapshot.clusters().values()) {
            boolean ready = snapshot.ready(s.cluster(), now, heartbeatTimeout);
            Map<String, ResourceList> clusterBooked = booked.getOrDefault(s.cluster(), Map.of());
            Map<String, long[]> rows = new TreeMap<>(); // model -> nodes, total, allocated, reserved, free, largest
            for (NodeState n : s.nodes()) {
                NodeGpus g = NodeGpus.of(n, ready, clusterBooked.getOrDefault(n.name(), ResourceList.EMPTY));
                long[] row = rows.computeIfAbsent(n.gpuProduct(), k -> new long[6]);
                row[0]++;
                row[1] += g.total();
                row[2] += g.allocated();
                row[3] += g.reserved();
                row[4] += g.free();
                row[5] = Math.max(row[5], g.free());
            }
            List<ModelReport> models = new ArrayList<>();
            rows.forEach((model, r) -> models.add(new ModelReport(model, (int) r[0], r[1], r[2], r[3], r[4], r[5])));
            out.add(new ClusterReport(
                    s.cluster(),
                    s.labels(),
                    ready,
                    s.heartbeat(),
                    s.nodes().size(),
                    models,
                    pendingByCluster.getOrDefault(s.cluster(), 0)));
        }
        out.sort(Comparator.comparing(ClusterReport::name));
        return new FleetReport(out);
    }
}
