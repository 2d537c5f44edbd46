package dev.cartograph.fleet;

import static dev.cartograph.fleet.DomainReportTest.CLIQUE;
import static dev.cartograph.fleet.DomainReportTest.RACK;
import static dev.cartograph.fleet.DomainReportTest.T;
import static dev.cartograph.fleet.DomainReportTest.ZONE;
import static dev.cartograph.testing.Nodes.H100;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.fleet.NodeMap.Cell;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node map of DomainReportTest's fleet, cell by cell, counted by hand from its table. */
class NodeMapTest {
    static final Map<String, String> A = Map.of(ZONE, "us-west-1a", RACK, "r1", CLIQUE, "clq-a");
    static final Map<String, String> B = Map.of(ZONE, "us-west-1a", CLIQUE, "clq-b");

    @Test
    void oneCellPerNodeInDomainOrderWithWhatIsFreeOnIt() {
        NodeMap west = NodeMap.of(DomainReportTest.fleet(), "west", T, Duration.ofSeconds(30), TopologyLevels.DEFAULT)
                .orElseThrow();
        assertThat(west.ready()).isTrue();
        assertThat(west.levels()).containsExactly(ZONE, RACK, CLIQUE);
        // by zone, then rack (the b nodes have none: after r1), then clique, then name; c1 has only a zone and no
        // GPUs; a4's 2 reserved GPUs are not free; b2 is not ready, so nothing on it is
        assertThat(west.nodes())
                .containsExactly(
                        new Cell("a1", H100, true, 8, 0, 0, 8, A),
                        new Cell("a2", H100, true, 8, 8, 0, 0, A),
                        new Cell("a3", H100, true, 8, 3, 0, 5, A),
                        new Cell("a4", H100, true, 8, 0, 2, 6, A),
                        new Cell("b1", H100, true, 8, 0, 0, 8, B),
                        new Cell("b2", H100, false, 8, 0, 0, 0, B),
                        new Cell("b3", H100, true, 8, 4, 0, 4, B),
                        new Cell("b4", H100, true, 8, 2, 0, 6, B),
                        new Cell("c1", "", true, 0, 0, 0, 0, Map.of(ZONE, "us-west-1a")));
        // the cluster whose agent fell silent: its node is there, with nothing free
        NodeMap lost = NodeMap.of(DomainReportTest.fleet(), "lost", T, Duration.ofSeconds(30), TopologyLevels.DEFAULT)
                .orElseThrow();
        assertThat(lost.ready()).isFalse();
        assertThat(lost.nodes()).extracting(Cell::free).containsExactly(0L);
        assertThat(NodeMap.of(DomainReportTest.fleet(), "nowhere", T, Duration.ofSeconds(30), TopologyLevels.DEFAULT))
                .isEmpty();
    }

    @Test
    void fragmentationCountsTheNodesWithGpusByHowManyAreFree() {
        Map<String, Fragmentation> f = Fragmentation.of(DomainReportTest.fleet(), T, Duration.ofSeconds(30));
        // west, free per GPU node from the table: 8, 0, 5, 6, 8, (b2 not ready), 4, 6; c1 has no GPUs
        assertThat(f.get("west")).isEqualTo(new Fragmentation("west", new long[] {1, 0, 0, 0, 1, 1, 2, 0, 2}, 1));
        // lost: its agent is silent, so its one GPU node can take nothing
        assertThat(f.get("lost")).isEqualTo(new Fragmentation("lost", new long[9], 1));
    }
}
