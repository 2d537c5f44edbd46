package dev.cartograph.preemption;

import static dev.cartograph.testing.Nodes.H100;
import static dev.cartograph.testing.Nodes.node;
import static dev.cartograph.testing.Nodes.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.fairshare.QueueSpecs;
import dev.cartograph.fairshare.QueueTree;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.placement.ClusterCapacity;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PlanningCluster;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.placement.PodDemand;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Who makes room, on fleets counted by hand. Each cluster has two nodes of 8 H100 ({@code <cluster>-1},
 * {@code <cluster>-2}); what victims hold is what the nodes count as used (started) or reserved (not started).
 */
@Timeout(60)
class PreemptionTest {
    static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    static QueueTree tree(String... yamls) {
        List<QueueSpecs.Read> read = new ArrayList<>();
        for (String y : yamls) {
            try {
                read.add(QueueSpecs.read(Documents.yaml().readTree(y)));
            } catch (IOException e) {
                throw new IllegalArgumentException(e);
            }
        }
        return QueueTree.of(read);
    }

    /** team-a: nominal 16 H100, reclaims; team-b: nominal 8 H100, borrows without limit. */
    static final QueueTree TEAMS = tree(
            "metadata: {name: team-a}\nspec: {namespaces: [a], quota: {gpus: {" + H100 + ": 16}}}",
            "metadata: {name: team-b}\nspec: {namespaces: [b], quota: {gpus: {" + H100 + ": 8}}}");

    static PodDemand pods(int count, int gpus) {
        return new PodDemand(
                "worker",
                "worker",
                count,
                res("nvidia.com/gpu", String.valueOf(gpus), "cpu", "4"),
                NodeConstraints.selecting(Map.of()));
    }

    static Preemptor gang(String queue, int priority, PodDemand... pods) {
        return new Preemptor("a/train", queue, priority, List.of(pods), Map.of());
    }

    /** A victim holding {@code gpus} H100 on each named node ({@code node, gpus, node, gpus…}). */
    static Victim victim(
            String uid, String queue, int priority, String cluster, int minute, boolean started, Object... nodeGpus) {
        Map<String, dev.cartograph.interpreter.resources.ResourceList> perNode = new LinkedHashMap<>();
        long total = 0;
        for (int i = 0; i < nodeGpus.length; i += 2) {
            int g = (Integer) nodeGpus[i + 1];
            perNode.put((String) nodeGpus[i], res("nvidia.com/gpu", String.valueOf(g)));
            total += g;
        }
        return new Victim(
                uid,
                "b/" + uid,
                queue,
                priority,
                cluster,
                perNode,
                Map.of(H100, total),
                T0.plusSeconds(60L * minute),
                started);
    }

    /**
     * A cluster whose nodes hold what the victims on it hold: a started victim's GPUs as the agent's allocated, one
     * not started as the broker's reservation.
     */
    static PlanningCluster cluster(String name, List<Victim> victims) {
        return cluster(name, victims, null, null);
    }

    /** The same, its two nodes in NVLink cliques {@code clique1} and {@code clique2} (none when null). */
    static PlanningCluster cluster(String name, List<Victim> victims, String clique1, String clique2) {
        ClusterCapacity cap = new ClusterCapacity();
        for (String n : List.of(name + "-1", name + "-2")) {
            String clique = n.endsWith("-1") ? clique1 : clique2;
            int used = 0;
            int reserved = 0;
            for (Victim v : victims) {
                if (v.cluster().equals(name) && v.perNode().containsKey(n)) {
                    int g = v.perNode().get(n).amounts().get("nvidia.com/gpu").intValue();
                    if (v.started()) {
                        used += g;
                    } else {
                        reserved += g;
                    }
                }
            }
            dev.cartograph.protocol.NodeState plain = node(n, H100, 8, used);
            cap.put(
                    clique == null
                            ? plain
                            : new dev.cartograph.protocol.NodeState(
                                    n,
                                    Map.of(
                                            dev.cartograph.protocol.NodeState.GPU_PRODUCT,
                                            H100,
                                            "nvidia.com/gpu.clique",
                                            clique),
                                    plain.taints(),
                                    true,
                                    true,
                                    plain.allocatable(),
                                    plain.allocated()),
                    reserved == 0
                            ? dev.cartograph.interpreter.resources.ResourceList.EMPTY
                            : res("nvidia.com/gpu", String.valueOf(reserved)));
        }
        return new PlanningCluster(name, Map.of(), true, cap);
    }

    static PlanningFleet fleet(List<Victim> victims, String... clusters) {
        return new PlanningFleet(
                Arrays.stream(clusters).map(c -> cluster(c, victims)).toList());
    }

    static Map<String, Map<String, Long>> usage(List<Victim> victims, Object... extra) {
        Map<String, Map<String, Long>> u = new LinkedHashMap<>();
        for (Victim v : victims) {
            u.computeIfAbsent(v.queue(), k -> new LinkedHashMap<>()).merge(H100, v.gpuCount(), Long::sum);
        }
        for (int i = 0; i < extra.length; i += 2) {
            u.computeIfAbsent((String) extra[i], k -> new LinkedHashMap<>())
                    .merge(H100, ((Integer) extra[i + 1]).longValue(), Long::sum);
        }
        return u;
    }

    static Optional<Preemption.Plan> plan(
            Preemptor g,
            List<Victim> placed,
            PlanningFleet f,
            QueueTree t,
            Map<String, Map<String, Long>> usage,
            long fleetGpus) {
        return Preemption.plan(g, placed, f, t, usage, Map.of(H100, fleetGpus), Planner.Policy.BIN_PACK);
    }

    @Test
    void aGangThatRequiresOneCliquePreemptsOnlyWhereFreeingTheVictimsLeavesOneCliqueThatHoldsIt() {
        // as below, but c2's two nodes are in two cliques and c1's in one: freeing b3 on c2 leaves 8 + 8 in two
        // cliques, which does not hold 2 × 8 in one; freeing b1 and b2 on c1 leaves 16 in clique k
        List<Victim> placed = List.of(
                victim("b1", "team-b", 0, "c1", 1, true, "c1-1", 8),
                victim("b2", "team-b", 0, "c1", 2, true, "c1-2", 8),
                victim("b3", "team-b", 0, "c2", 3, true, "c2-1", 8, "c2-2", 8));
        PlanningFleet cliques =
                new PlanningFleet(List.of(cluster("c1", placed, "k", "k"), cluster("c2", placed, "x", "y")));
        Preemptor ring = new Preemptor(
                "a/train",
                "team-a",
                0,
                List.of(pods(2, 8)),
                Map.of(),
                dev.cartograph.placement.GangTopology.required("nvidia.com/gpu.clique"));

        Preemption.Plan p =
                plan(ring, placed, cliques, TEAMS, usage(placed), 32).orElseThrow();

        assertThat(p.cluster()).isEqualTo("c1");
        assertThat(p.victims()).extracting(Victim::uid).containsExactlyInAnyOrder("b1", "b2");
        assertThat(p.placed().pin()).isEqualTo(Map.of("nvidia.com/gpu.clique", "k"));
        // asking for no topology, the same fleet gives up b3 alone (the test below)
        assertThat(plan(gang("team-a", 0, pods(2, 8)), placed, cliques, TEAMS, usage(placed), 32)
                        .orElseThrow()
                        .victims())
                .extracting(Victim::uid)
                .containsExactly("b3");
    }

    @Test
    void aQueueReclaimingLentGpusTakesTheClusterWhereOneVictimIsEnough() {
        // team-b holds all 32 H100 (nominal 8: borrows 24). On c1 two 8-GPU gangs; on c2 one 16-GPU gang.
        // team-a (0 of nominal 16 in use) wants 2 × 8: c1 needs both of its gangs gone, c2 only b3.
        List<Victim> placed = List.of(
                victim("b1", "team-b", 0, "c1", 1, true, "c1-1", 8),
                victim("b2", "team-b", 0, "c1", 2, true, "c1-2", 8),
                victim("b3", "team-b", 0, "c2", 3, true, "c2-1", 8, "c2-2", 8));

        Preemption.Plan p = plan(
                        gang("team-a", 0, pods(2, 8)), placed, fleet(placed, "c1", "c2"), TEAMS, usage(placed), 32)
                .orElseThrow();

        assertThat(p.cluster()).isEqualTo("c2");
        assertThat(p.victims()).extracting(Victim::uid).containsExactly("b3");
        assertThat(p.placed().cluster()).isEqualTo("c2");
        assertThat(p.placed().assignments()).extracting(a -> a.node()).containsExactlyInAnyOrder("c2-1", "c2-2");
        assertThat(p.reasons())
                .containsExactly(Map.entry(
                        "b3", "preempted by a/train (queue team-a reclaiming 16 " + H100 + " lent to team-b)"));
    }

    @Test
    void fillBackKeepsAGangWhoseGpusTurnOutNotToBeNeeded() {
        // c1-1: b-small (2, not started: taken first) and b-old (6); c1-2: b-new (8, placed last: taken before b-old).
        // Taking b-small frees 2 on c1-1 (not enough for 8), b-new frees c1-2: it fits; b-small is put back.
        List<Victim> placed = List.of(
                victim("b-small", "team-b", 0, "c1", 5, false, "c1-1", 2),
                victim("b-old", "team-b", 0, "c1", 1, true, "c1-1", 6),
                victim("b-new", "team-b", 0, "c1", 4, true, "c1-2", 8));

        Preemption.Plan p = plan(gang("team-a", 0, pods(1, 8)), placed, fleet(placed, "c1"), TEAMS, usage(placed), 16)
                .orElseThrow();

        assertThat(p.victims()).extracting(Victim::uid).containsExactly("b-new");
        assertThat(p.placed().assignments()).extracting(a -> a.node()).containsExactly("c1-2");
    }

    @Test
    void aReservationNotYetStartedIsFreedLikeRunningPods() {
        // b-res holds c1-2 only as the broker's reservation (its pods have not started): freeing it frees the node.
        List<Victim> placed = List.of(
                victim("b-run", "team-b", 0, "c1", 1, true, "c1-1", 8),
                victim("b-res", "team-b", 0, "c1", 2, false, "c1-2", 8));

        Preemption.Plan p = plan(gang("team-a", 0, pods(1, 8)), placed, fleet(placed, "c1"), TEAMS, usage(placed), 16)
                .orElseThrow();

        assertThat(p.victims()).extracting(Victim::uid).containsExactly("b-res");
    }

    @Test
    void nothingIsPreemptedWhenTheGangWouldNotFitEvenThen() {
        // one pod of 16 GPUs: no node has more than 8, whoever goes
        List<Victim> placed = List.of(victim("b3", "team-b", 0, "c2", 3, true, "c2-1", 8, "c2-2", 8));

        assertThat(plan(gang("team-a", 0, pods(1, 16)), placed, fleet(placed, "c2"), TEAMS, usage(placed), 16))
                .isEmpty();
    }

    @Test
    void aQueueAtItsNominalQuotaReclaimsNothing() {
        // team-a already holds its 16 elsewhere; team-b borrows on c1, but team-a has no unused nominal to take back
        List<Victim> placed = List.of(
                victim("b1", "team-b", 0, "c1", 1, true, "c1-1", 8, "c1-2", 8),
                victim("a1", "team-a", 0, "c2", 1, true, "c2-1", 8, "c2-2", 8));

        assertThat(plan(gang("team-a", 0, pods(1, 8)), placed, fleet(placed, "c1", "c2"), TEAMS, usage(placed), 32))
                .isEmpty();
    }

    @Test
    void aGangIsNotTakenFromAQueueThatDoesNotBorrow() {
        // team-b holds 8 of its nominal 8 on c1-1: it lends nothing, so team-a may not take it, though it would fit
        List<Victim> placed = List.of(victim("b1", "team-b", 0, "c1", 1, true, "c1-1", 8));
        QueueTree t = tree(
                "metadata: {name: team-a}\nspec: {namespaces: [a], quota: {gpus: {" + H100 + ": 16}}}",
                "metadata: {name: team-b}\nspec: {namespaces: [b], quota: {gpus: {" + H100 + ": 8}}}");
        // a 2 × 8 gang needs c1-1 too
        assertThat(plan(gang("team-a", 0, pods(2, 8)), placed, fleet(placed, "c1"), t, usage(placed), 16))
                .isEmpty();
    }

    @Test
    void aVictimStopsBeingOneWhenItsQueueNoLongerBorrows() {
        // team-b holds 16 (nominal 8): it borrows 8. Taking b1 brings it to its nominal: b2 is no longer lent GPUs.
        // team-a wants 2 × 8: with b1 gone only one node is free, so nothing is preempted at all.
        List<Victim> placed = List.of(
                victim("b1", "team-b", 0, "c1", 2, true, "c1-1", 8),
                victim("b2", "team-b", 0, "c1", 1, true, "c1-2", 8));

        assertThat(plan(gang("team-a", 0, pods(2, 8)), placed, fleet(placed, "c1"), TEAMS, usage(placed), 16))
                .isEmpty();
        // 1 × 8 fits with b1 (placed last) gone alone
        assertThat(plan(gang("team-a", 0, pods(1, 8)), placed, fleet(placed, "c1"), TEAMS, usage(placed), 16)
                        .orElseThrow()
                        .victims())
                .extracting(Victim::uid)
                .containsExactly("b1");
    }

    @Test
    void neverMeansNobody() {
        QueueTree t = tree(
                "metadata: {name: team-a}\nspec: {namespaces: [a], preemption: Never, quota: {gpus: {" + H100
                        + ": 16}}}",
                "metadata: {name: team-b}\nspec: {namespaces: [b], quota: {gpus: {" + H100 + ": 8}}}");
        List<Victim> placed = List.of(victim("b3", "team-b", 0, "c2", 3, true, "c2-1", 8, "c2-2", 8));

        assertThat(plan(gang("team-a", 0, pods(1, 8)), placed, fleet(placed, "c2"), t, usage(placed), 16))
                .isEmpty();
    }

    @Test
    void lowerPriorityTakesTheQueuesOwnLessUrgentGangsAndNotItsEquals() {
        // team-a (LowerPriority, nominal 16) fills c1 with a priority-10 and a priority-100 gang
        QueueTree t = tree("metadata: {name: team-a}\nspec: {namespaces: [a], preemption: LowerPriority,"
                + " quota: {gpus: {" + H100 + ": 16}}}");
        List<Victim> placed = List.of(
                victim("a-low", "team-a", 10, "c1", 1, true, "c1-1", 8),
                victim("a-high", "team-a", 100, "c1", 2, true, "c1-2", 8));

        Preemption.Plan p = plan(gang("team-a", 100, pods(1, 8)), placed, fleet(placed, "c1"), t, usage(placed), 16)
                .orElseThrow();

        assertThat(p.victims()).extracting(Victim::uid).containsExactly("a-low");
        assertThat(p.reasons()).containsEntry("a-low", "preempted by a/train (priority 100 over 10 in queue team-a)");
        // the same gang needing both nodes: a-high is its equal, so nothing
        assertThat(plan(gang("team-a", 100, pods(2, 8)), placed, fleet(placed, "c1"), t, usage(placed), 16))
                .isEmpty();
        // ReclaimOnly (the default) never takes the queue's own gangs
        QueueTree reclaim =
                tree("metadata: {name: team-a}\nspec: {namespaces: [a], quota: {gpus: {" + H100 + ": 16}}}");
        assertThat(plan(gang("team-a", 100, pods(1, 8)), placed, fleet(placed, "c1"), reclaim, usage(placed), 16))
                .isEmpty();
    }

    @Test
    void whatIsReclaimedIsCappedAtTheUnusedNominalQuota() {
        // team-a holds 8 of its nominal 16 elsewhere (c2): it may take back 8, not 16, even though both c1 gangs borrow
        List<Victim> placed = List.of(
                victim("b1", "team-b", 0, "c1", 1, true, "c1-1", 8),
                victim("b2", "team-b", 0, "c1", 2, true, "c1-2", 8),
                victim("b3", "team-b", 0, "c2", 3, true, "c2-2", 8),
                victim("a1", "team-a", 0, "c2", 1, true, "c2-1", 8));
        // team-b: 24 held, nominal 8, borrows 16
        assertThat(plan(gang("team-a", 0, pods(2, 8)), placed, fleet(placed, "c1", "c2"), TEAMS, usage(placed), 32))
                .isEmpty();
        Preemption.Plan one = plan(
                        gang("team-a", 0, pods(1, 8)), placed, fleet(placed, "c1", "c2"), TEAMS, usage(placed), 32)
                .orElseThrow();
        // c1 and c2 each need one 8-GPU victim: equal, so the cluster name decides
        assertThat(one.cluster()).isEqualTo("c1");
        assertThat(one.victims()).extracting(Victim::uid).containsExactly("b2");
    }
}
