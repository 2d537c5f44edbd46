package dev.cartograph.fleet;

import static dev.cartograph.testing.Nodes.H100;
import static dev.cartograph.testing.Nodes.node;
import static dev.cartograph.testing.Nodes.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.fleet.DomainReport.Domain;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fleet, counted by hand. west (ready), zone us-west-1a, 8 GPUs per H100 node:
 *
 * <pre>
 * clique clq-a, rack r1: a1 0 used -> 8 free (whole); a2 8 used -> 0; a3 3 used -> 5; a4 0 used, 2 reserved -> 6
 * clique clq-b, no rack: b1 0 used -> 8 free (whole); b2 not ready -> 0; b3 4 used -> 4; b4 2 used -> 6
 * c1: no GPUs, zone label only
 * </pre>
 *
 * lost (heartbeat 10 min old), zone us-east-1b, clique clq-z: l1 H100 8 GPUs, none used, so none free.
 */
@Timeout(10)
class DomainReportTest {
    static final Instant T = Instant.parse("2026-12-06T12:00:00Z");
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String RACK = "cartograph.dev/rack";
    static final String CLIQUE = "nvidia.com/gpu.clique";

    static NodeState labelled(NodeState n, boolean ready, String... kv) {
        Map<String, String> labels = new HashMap<>(n.labels());
        for (int i = 0; i < kv.length; i += 2) {
            labels.put(kv[i], kv[i + 1]);
        }
        return new NodeState(n.name(), labels, n.taints(), ready, n.schedulable(), n.allocatable(), n.allocated());
    }

    static NodeState gpuNode(String name, int used, String clique, String... more) {
        String[] kv = new String[4 + more.length];
        kv[0] = ZONE;
        kv[1] = "us-west-1a";
        kv[2] = CLIQUE;
        kv[3] = clique;
        System.arraycopy(more, 0, kv, 4, more.length);
        return labelled(node(name, H100, 8, used), true, kv);
    }

    static FleetSnapshot fleet() {
        Fleet fleet = new Fleet();
        NodeState cpuOnly = new NodeState(
                "c1", Map.of(ZONE, "us-west-1a"), List.of(), true, true, res("cpu", "64"), res("cpu", "4"));
        fleet.accept(new ClusterSummary(
                "west",
                Map.of(),
                "v",
                "i",
                1,
                T,
                List.of(
                        gpuNode("a1", 0, "clq-a", RACK, "r1"),
                        gpuNode("a2", 8, "clq-a", RACK, "r1"),
                        gpuNode("a3", 3, "clq-a", RACK, "r1"),
                        gpuNode("a4", 0, "clq-a", RACK, "r1"),
                        gpuNode("b1", 0, "clq-b"),
                        labelled(gpuNode("b2", 0, "clq-b"), false),
                        gpuNode("b3", 4, "clq-b"),
                        gpuNode("b4", 2, "clq-b"),
                        cpuOnly),
                List.of()));
        fleet.accept(new ClusterSummary(
                "lost",
                Map.of(),
                "v",
                "i",
                1,
                T.minusSeconds(600),
                List.of(labelled(node("l1", H100, 8, 0), true, ZONE, "us-east-1b", CLIQUE, "clq-z")),
                List.of()));
        fleet.hold(new Reservation("p1", "west", 1, Map.of("a4", res("nvidia.com/gpu", "2"))));
        return fleet.snapshot();
    }

    @Test
    void countsFreeGpusPerClusterLevelDomainAndModelInConfiguredOrder() {
        DomainReport r = DomainReport.of(fleet(), T, Duration.ofSeconds(30), TopologyLevels.DEFAULT);

        assertThat(r.levels()).isEqualTo(TopologyLevels.DEFAULT);
        // cluster, level, domain, model, nodes, ready, total, free, largest, whole free
        assertThat(r.domains())
                .containsExactly(
                        // lost: not ready, so no node is ready and nothing is free
                        new Domain("lost", ZONE, "us-east-1b", H100, 1, 0, 8, 0, 0, 0),
                        new Domain("lost", CLIQUE, "clq-z", H100, 1, 0, 8, 0, 0, 0),
                        // c1 has no GPU model: its own row, no GPUs, never whole free
                        new Domain("west", ZONE, "us-west-1a", "", 1, 1, 0, 0, 0, 0),
                        // a1..b4: 8 nodes, b2 not ready; 64 GPUs; free 8+0+5+6 + 8+0+4+6 = 37; a1 and b1 whole
                        new Domain("west", ZONE, "us-west-1a", H100, 8, 7, 64, 37, 8, 2),
                        // only a1..a4 carry a rack; the b nodes are in no rack
                        new Domain("west", RACK, "r1", H100, 4, 4, 32, 19, 8, 1),
                        // a: 8+0+5+6 = 19 (a4's 2 reserved are not free); b: 8+0+4+6 = 18, b2 not ready
                        new Domain("west", CLIQUE, "clq-a", H100, 4, 4, 32, 19, 8, 1),
                        new Domain("west", CLIQUE, "clq-b", H100, 4, 3, 32, 18, 8, 1));
    }

    @Test
    void largestFreeBlockIsTheFreestNodeOfTheDomain() {
        Fleet fleet = new Fleet();
        fleet.accept(new ClusterSummary(
                "east",
                Map.of(),
                "v",
                "i",
                1,
                T,
                List.of(
                        labelled(node("e1", H100, 8, 5), true, CLIQUE, "c"),
                        labelled(node("e2", H100, 8, 2), true, CLIQUE, "c")),
                List.of()));

        DomainReport r =
                DomainReport.of(fleet.snapshot(), T, Duration.ofSeconds(30), new TopologyLevels(List.of(CLIQUE)));

        // free 3 and 6: 9 free in the clique, but one pod gets at most 6; neither node wholly free
        assertThat(r.domains()).containsExactly(new Domain("east", CLIQUE, "c", H100, 2, 2, 16, 9, 6, 0));
    }

    @Test
    void oneLevelOnlyOrNothingForALevelNotConfigured() {
        DomainReport r = DomainReport.of(fleet(), T, Duration.ofSeconds(30), TopologyLevels.DEFAULT);

        DomainReport cliques = r.only(CLIQUE).orElseThrow();
        assertThat(cliques.levels().keys()).containsExactly(CLIQUE);
        assertThat(cliques.domains()).extracting(Domain::domain).containsExactly("clq-z", "clq-a", "clq-b");
        assertThat(r.only("kubernetes.io/hostname")).isEmpty();
    }

    @Test
    void anEmptyFleetHasNoDomains() {
        assertThat(DomainReport.of(FleetSnapshot.EMPTY, T, Duration.ofSeconds(30), TopologyLevels.DEFAULT)
                        .domains())
                .isEmpty();
    }
}
