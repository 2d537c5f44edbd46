package dev.cartograph.protocol;

import static dev.cartograph.protocol.WireTest.T;
import static dev.cartograph.protocol.WireTest.h100;
import static dev.cartograph.protocol.WireTest.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.ClusterAssembly.Step;
import dev.cartograph.protocol.ClusterRecord.Gone;
import dev.cartograph.protocol.ClusterRecord.Header;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Kind;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Placed;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An agent's rounds ({@link ClusterDeltas}) read back in order ({@link ClusterAssembly}) give the agent's summary. */
@Timeout(120)
class ClusterDeltasTest {
    /** A summary whose heartbeat is {@code sequence} seconds after T. */
    static ClusterSummary summary(String incarnation, long sequence, List<NodeState> nodes, List<PlacementReport> p) {
        return summary(incarnation, sequence, T.plusSeconds(sequence), nodes, p);
    }

    static ClusterSummary summary(
            String incarnation,
            long sequence,
            java.time.Instant heartbeat,
            List<NodeState> nodes,
            List<PlacementReport> p) {
        return new ClusterSummary(
                "gpu-east", Map.of("region", "us"), "0.1.0", incarnation, sequence, heartbeat, nodes, p);
    }

    static PlacementReport placement(String id, int pending) {
        return new PlacementReport(id, 1, pending, pending == 0 ? res() : res("nvidia.com/gpu", "8"));
    }

    /** Reads records as the broker does: encoded, decoded under their key, applied in order; the summary completed. */
    static Optional<ClusterAssembly.Summary> read(ClusterAssembly a, List<ClusterRecord> records) {
        NodeParts parts = new NodeParts();
        for (ClusterRecord r : records) {
            Decoded<ClusterRecord> d = Wire.decodeCluster(r.key().kafkaKey(), Wire.encode(r), parts);
            assertThat(a.apply(((Decoded.Ok<ClusterRecord>) d).value())).isNotInstanceOf(Step.Refused.class);
        }
        return a.take();
    }

    static Map<String, NodeState> byName(List<NodeState> nodes) {
        return nodes.stream().collect(Collectors.toMap(NodeState::name, Function.identity()));
    }

    @Test
    void theFirstRoundWritesEverythingThenOnlyWhatChangedWithTheHeaderLast() {
        ClusterDeltas deltas = new ClusterDeltas();
        List<NodeState> nodes = List.of(h100("n1", 0, true, true, "a"), h100("n2", 0, true, true, "a"));
        List<ClusterRecord> first = deltas.next(summary("inc", 1, nodes, List.of(placement("p-1", 1))));
        assertThat(first.stream().map(r -> r.key().kafkaKey()))
                .containsExactly("node/n1", "node/n2", "placement/p-1", "gpu-east");
        assertThat(first.get(3))
                .isEqualTo(new Header(
                        "gpu-east", Map.of("region", "us"), "0.1.0", new Stamp("inc", 0), 1, T.plusSeconds(1), 2, 1));

        // n2 takes 4 GPUs, p-1's pods are bound: two records and the header
        List<NodeState> changed = List.of(h100("n1", 0, true, true, "a"), h100("n2", 4, true, true, "a"));
        assertThat(deltas.next(summary("inc", 2, changed, List.of(placement("p-1", 0)))).stream()
                        .map(r -> r.key().kafkaKey()))
                .containsExactly("node/n2", "placement/p-1", "gpu-east");
        // nothing changed: the header alone (the heartbeat)
        assertThat(deltas.next(summary("inc", 3, changed, List.of(placement("p-1", 0)))))
                .hasSize(1)
                .first()
                .isInstanceOf(Header.class);
        // n1 and p-1 are gone: tombstones
        assertThat(deltas.next(summary("inc", 4, changed.subList(1, 2), List.of())))
                .containsExactly(
                        new Gone(new Key(Kind.NODE, "n1")),
                        new Gone(new Key(Kind.PLACEMENT, "p-1")),
                        new Header(
                                "gpu-east",
                                Map.of("region", "us"),
                                "0.1.0",
                                new Stamp("inc", 0),
                                4,
                                T.plusSeconds(4),
                                1,
                                0));
    }

    @Test
    void afterRecordsAreLostEverythingIsWrittenAgainUnderANewResyncStamp() {
        ClusterDeltas deltas = new ClusterDeltas();
        List<NodeState> nodes = List.of(h100("n1", 0, true, true, "a"), h100("n2", 0, true, true, "a"));
        deltas.next(summary("inc", 1, nodes, List.of()));
        deltas.lost();
        List<ClusterRecord> again = deltas.next(summary("inc", 2, nodes, List.of()));
        assertThat(again).hasSize(3);
        assertThat(again).allSatisfy(r -> assertThat(stamp(r)).isEqualTo(new Stamp("inc", 1)));
    }

    static Stamp stamp(ClusterRecord r) {
        if (r instanceof Header h) {
            return h.stamp();
        } else if (r instanceof Node n) {
            return n.stamp();
        }
        return ((Placed) r).stamp();
    }

    @Test
    void aRestartedAgentsFirstHeaderDropsNodesDeletedWhileItWasAway() {
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        List<NodeState> three =
                List.of(h100("n1", 0, true, true, "a"), h100("n2", 0, true, true, "a"), h100("n3", 2, true, true, "b"));
        read(broker, new ClusterDeltas().next(summary("before", 9, T, three, List.of(placement("p-1", 1)))));
        // n2 and p-1 went while no agent ran; the new incarnation writes n1 and n3 (n3 changed), then its header
        List<NodeState> two = List.of(h100("n1", 0, true, true, "a"), h100("n3", 5, true, true, "b"));
        ClusterAssembly.Summary after = read(broker, new ClusterDeltas().next(summary("after", 1, two, List.of())))
                .orElseThrow();
        assertThat(after.summary().nodes()).containsExactlyElementsOf(two);
        assertThat(after.summary().placements()).isEmpty();
        assertThat(after.summary().incarnation()).isEqualTo("after");
        assertThat(after.changedNodes())
                .as("a new stamp: any node may have changed")
                .isEmpty();
        assertThat(after.doubt()).isEmpty();
    }

    @Test
    void aSummaryNamesTheNodesChangedSinceThePreviousOne() {
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        ClusterDeltas agent = new ClusterDeltas();
        List<NodeState> nodes =
                List.of(h100("n1", 0, true, true, "a"), h100("n2", 0, true, true, "a"), h100("n3", 0, true, true, "a"));
        ClusterAssembly.Summary first =
                read(broker, agent.next(summary("inc", 1, nodes, List.of()))).orElseThrow();
        assertThat(first.changedNodes()).isEmpty();
        List<NodeState> next = List.of(h100("n1", 1, true, true, "a"), h100("n3", 0, false, true, "a"));
        ClusterAssembly.Summary second =
                read(broker, agent.next(summary("inc", 2, next, List.of()))).orElseThrow();
        assertThat(second.changedNodes()).contains(Set.of("n1", "n2", "n3"));
        ClusterAssembly.Summary third =
                read(broker, agent.next(summary("inc", 3, next, List.of()))).orElseThrow();
        assertThat(third.changedNodes()).contains(Set.of());
    }

    @Test
    void anUnreadableNodeRecordDropsTheNodeAndTheHeaderSaysTheCountsDiffer() {
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        ClusterDeltas agent = new ClusterDeltas();
        List<NodeState> nodes = List.of(h100("n1", 0, true, true, "a"), h100("n2", 0, true, true, "a"));
        read(broker, agent.next(summary("inc", 1, nodes, List.of())));
        broker.unreadable(new Key(Kind.NODE, "n2"));
        assertThat(broker.apply(new Header("gpu-east", Map.of(), "0.1.0", new Stamp("inc", 0), 2, T, 2, 0)))
                .isInstanceOf(Step.Completed.class);
        ClusterAssembly.Summary s = broker.take().orElseThrow();
        assertThat(s.summary().nodes()).extracting(NodeState::name).containsExactly("n1");
        assertThat(s.changedNodes()).contains(Set.of("n2"));
        assertThat(s.doubt())
                .contains(
                        "cluster gpu-east says it has 2 nodes and 0 placements; 1 and 0 were read (records lost or refused)");
    }

    @Test
    void aHeaderOlderThanTheNewestCompletesNothingAndItsChangesGoToTheNextSummary() {
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        List<NodeState> nodes = List.of(h100("n1", 0, true, true, "a"));
        read(broker, new ClusterDeltas().next(summary("old", 5, T, nodes, List.of())));
        // a restarted agent whose clock is behind the old one's last heartbeat: its header is older
        ClusterDeltas restarted = new ClusterDeltas();
        ClusterSummary behind = new ClusterSummary(
                "gpu-east",
                Map.of(),
                "0.1.0",
                "new",
                1,
                T.minusSeconds(2),
                List.of(h100("n1", 3, true, true, "a")),
                List.of());
        assertThat(read(broker, restarted.next(behind))).isEmpty();
        ClusterSummary later = new ClusterSummary(
                "gpu-east", Map.of(), "0.1.0", "new", 2, T.plusSeconds(1), behind.nodes(), List.of());
        ClusterAssembly.Summary s = read(broker, restarted.next(later)).orElseThrow();
        assertThat(s.summary().nodes()).isEqualTo(behind.nodes());
        assertThat(s.changedNodes())
                .as("the new stamp's summary is the first the fleet takes: any node changed")
                .isEmpty();
    }

    @Test
    void nodesOfOneShapeShareTheirTaintsAndAllocatable() {
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        List<NodeState> nodes = List.of(h100("n1", 2, true, true, "a"), h100("n2", 2, true, true, "a"));
        ClusterAssembly.Summary s = read(broker, new ClusterDeltas().next(summary("inc", 1, nodes, List.of())))
                .orElseThrow();
        NodeState a = s.summary().nodes().get(0);
        NodeState b = s.summary().nodes().get(1);
        assertThat(a).isEqualTo(nodes.get(0));
        assertThat(a.taints()).isSameAs(b.taints());
        assertThat(a.allocatable()).isSameAs(b.allocatable());
        assertThat(a.allocated()).isSameAs(b.allocated());
    }

    /**
     * Random histories (seeded, so a failure reproduces): nodes added, changed, removed, placements coming and
     * going, agent restarts, rounds whose records are partly lost. After every header of a round that lost
     * nothing, the assembled summary has exactly the agent's nodes and placements, and the changed names cover
     * every node whose state differs from the previous summary.
     */
    @Test
    void deltasAppliedInOrderGiveTheSameNodesAsTheWholeSummary() {
        int checked = 0;
        for (long seed = 1; seed <= 200; seed++) {
            checked += history(new Random(seed), seed);
        }
        // most rounds are checked (about one in eight loses records, and the round after a loss is checked again)
        assertThat(checked).isGreaterThan(200 * 40 / 2);
    }

    /** One random history; how many summaries were checked. */
    private static int history(Random random, long seed) {
        int checked = 0;
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        ClusterDeltas agent = new ClusterDeltas();
        String incarnation = "inc-0";
        long sequence = 0;
        Map<String, NodeState> nodes = new TreeMap<>();
        Map<String, PlacementReport> placements = new TreeMap<>();
        Map<String, NodeState> lastSummary = null;
        int next = 0;
        for (int round = 0; round < 40; round++) {
            int ops = random.nextInt(6);
            for (int i = 0; i < ops; i++) {
                int op = random.nextInt(5);
                if (op == 0 || nodes.isEmpty()) {
                    String name = "n" + next++;
                    nodes.put(name, h100(name, random.nextInt(9), true, true, "z" + random.nextInt(3)));
                } else if (op == 1) {
                    nodes.remove(pick(random, nodes));
                } else if (op == 2) {
                    String name = pick(random, nodes);
                    nodes.put(name, h100(name, random.nextInt(9), random.nextBoolean(), random.nextBoolean(), "z0"));
                } else if (op == 3) {
                    String id = "p-" + random.nextInt(6);
                    placements.put(id, placement(id, random.nextInt(3)));
                } else if (!placements.isEmpty()) {
                    placements.remove(pick(random, placements));
                }
            }
            if (random.nextInt(10) == 0) {
                incarnation = "inc-" + round;
                agent = new ClusterDeltas(); // a new agent knows nothing of what the old one wrote
                sequence = 0;
            }
            List<ClusterRecord> records = agent.next(summary(
                    incarnation,
                    ++sequence,
                    T.plusSeconds(round), // one clock for every incarnation: a restart's headers are newer
                    List.copyOf(nodes.values()),
                    List.copyOf(placements.values())));
            boolean lose = random.nextInt(8) == 0;
            if (lose) {
                List<ClusterRecord> kept = new ArrayList<>();
                records.forEach(r -> {
                    if (random.nextBoolean()) {
                        kept.add(r);
                    }
                });
                records = kept;
                agent.lost();
            }
            Optional<ClusterAssembly.Summary> taken = read(broker, records);
            if (lose || taken.isEmpty()) {
                lastSummary = null;
                continue;
            }
            ClusterAssembly.Summary s = taken.get();
            Map<String, NodeState> held = byName(s.summary().nodes());
            assertThat(held).as("seed %d round %d", seed, round).isEqualTo(nodes);
            assertThat(s.summary().placements())
                    .as("seed %d round %d", seed, round)
                    .containsExactlyInAnyOrderElementsOf(placements.values());
            assertThat(s.doubt()).as("seed %d round %d", seed, round).isEmpty();
            if (lastSummary != null && s.changedNodes().isPresent()) {
                Set<String> differ = new HashSet<>(held.keySet());
                differ.addAll(lastSummary.keySet());
                Map<String, NodeState> before = lastSummary;
                differ.removeIf(n -> java.util.Objects.equals(before.get(n), held.get(n)));
                assertThat(s.changedNodes().get())
                        .as("seed %d round %d", seed, round)
                        .isEqualTo(differ);
            }
            lastSummary = new LinkedHashMap<>(held);
            checked++;
        }
        return checked;
    }

    private static String pick(Random random, Map<String, ?> map) {
        List<String> keys = new ArrayList<>(map.keySet());
        return keys.get(random.nextInt(keys.size()));
    }

    @Test
    void theBrokerHoldsAtMostTheCeilingOfNodesPerCluster() {
        ClusterAssembly broker = new ClusterAssembly("gpu-east");
        Stamp stamp = new Stamp("inc", 0);
        NodeState shape = h100("x", 0, true, true, "a");
        for (int i = 0; i < ClusterAssembly.MAX_NODES; i++) {
            broker.apply(new Node("gpu-east", stamp, withName(shape, "n" + i)));
        }
        assertThat(broker.apply(new Node("gpu-east", stamp, withName(shape, "one-more"))))
                .isEqualTo(new Step.Refused(
                        "cluster gpu-east already holds 100000 nodes, the most one cluster may report"));
        assertThat(broker.apply(new Node("gpu-east", stamp, withName(shape, "n7"))))
                .isInstanceOf(Step.Held.class);
        assertThat(broker.nodes()).isEqualTo(ClusterAssembly.MAX_NODES);
        assertThat(Optional.of(broker.nodes())).contains(100_000); // hand count: the ceiling
    }

    static NodeState withName(NodeState n, String name) {
        Map<String, String> labels = new LinkedHashMap<>(n.labels());
        labels.put("kubernetes.io/hostname", name);
        return new NodeState(name, labels, n.taints(), n.ready(), n.schedulable(), n.allocatable(), n.allocated());
    }
}
