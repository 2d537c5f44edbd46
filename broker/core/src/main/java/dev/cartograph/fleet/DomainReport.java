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
import java.util.Optional;
import java.util.TreeMap;

/**
 * Free GPUs per topology domain, so that fragmentation is visible ({@code GET /api/v1/fleet/domains}, {@code carto
 * fleet --by-domain}): one row per cluster, level, domain (the level's label value on the nodes) and GPU model. Nodes
 * are counted by {@link FleetReport}'s rules ({@link NodeGpus}); a node without a level's label is in no domain of that
 * level and is left out of its rows, so a level no node of a cluster carries has no rows there. Rows are sorted by
 * cluster, level (in the configured order), domain, model. Pure; immutable.
 */
public record DomainReport(TopologyLevels levels, List<Domain> domains) {
    public DomainReport {
        domains = List.copyOf(domains);
    }

    /**
     * One domain's nodes of one GPU model ({@code ""} for nodes without {@code nvidia.com/gpu.product}).
     *
     * @param readyNodes       nodes whose GPUs can be free: ready, schedulable, on a ready cluster
     * @param freeGpus         GPUs left on those nodes, after bound pods and the broker's reservations
     * @param largestFreeBlock most free GPUs on one node: what one multi-GPU pod can get in this domain
     * @param wholeFreeNodes   nodes with GPUs, every one free
     */
    public record Domain(
            String cluster,
            String level,
            String domain,
            String gpuModel,
            int nodes,
            int readyNodes,
            long totalGpus,
            long freeGpus,
            long largestFreeBlock,
            int wholeFreeNodes) {}

    /** The row's key; orders rows by cluster, level as configured, domain, model. */
    private record Key(String cluster, int level, String domain, String model) {
        static final Comparator<Key> ORDER = Comparator.comparing(Key::cluster)
                .thenComparingInt(Key::level)
                .thenComparing(Key::domain)
                .thenComparing(Key::model);
    }

    public static DomainReport of(
            FleetSnapshot snapshot, Instant now, Duration heartbeatTimeout, TopologyLevels levels) {
        Map<String, Map<String, ResourceList>> booked = NodeGpus.bookedPerNode(snapshot);
        // per key: nodes, ready nodes, total, free, largest free block, whole free nodes
        Map<Key, long[]> rows = new TreeMap<>(Key.ORDER);
        for (ClusterSummary s : snapshot.clusters().values()) {
            boolean ready = snapshot.ready(s.cluster(), now, heartbeatTimeout);
            Map<String, ResourceList> clusterBooked = booked.getOrDefault(s.cluster(), Map.of());
            for (NodeState n : s.nodes()) {
                NodeGpus g = NodeGpus.of(n, ready, clusterBooked.getOrDefault(n.name(), ResourceList.EMPTY));
                for (int level = 0; level < levels.keys().size(); level++) {
                    String domain = n.labels().get(levels.keys().get(level));
                    if (domain != null) {
                        add(
                                rows.computeIfAbsent(
                                        new Key(s.cluster(), level, domain, n.gpuProduct()), k -> new long[6]),
                                g);
                    }
                }
            }
        }
        List<Domain> out = new ArrayList<>(rows.size());
        rows.forEach((k, r) -> out.add(new Domain(
                k.cluster(),
                levels.keys().get(k.level()),
                k.domain(),
                k.model(),
                (int) r[0],
                (int) r[1],
                r[2],
                r[3],
                r[4],
                (int) r[5])));
        return new DomainReport(levels, out);
    }

    private static void add(long[] row, NodeGpus g) {
        row[0]++;
        row[1] += g.usable() ? 1 : 0;
        row[2] += g.total();
        row[3] += g.free();
        row[4] = Math.max(row[4], g.free());
        row[5] += g.wholeFree() ? 1 : 0;
    }

    /** Only the rows of {@code level}; empty when it is not one of the report's levels. */
    public Optional<DomainReport> only(String level) {
        if (!levels.contains(level)) {
            return Optional.empty();
        }
        return Optional.of(new DomainReport(
                new TopologyLevels(List.of(level)),
                domains.stream().filter(d -> d.level().equals(level)).toList()));
    }
}
