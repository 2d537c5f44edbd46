package dev.cartograph.local.fault.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each invariant over small histories written by hand: a clean run gives nothing, each breach is named once. */
@Timeout(10)
class CheckerTest {
    private static final Sample.Node FREE_NODE = new Sample.Node(8, 0);

    private static Sample sample(long at, Map<String, Sample.Member> clusters) {
        return new Sample(at, clusters);
    }

    private static Sample.Member member(Map<String, Sample.Copy> copies, Sample.Node node) {
        return new Sample.Member(copies, Map.of("n1", node));
    }

    private static Sample.Copy copy(String placement, String uid, boolean running) {
        return new Sample.Copy(placement, uid, running);
    }

    private static History history(
            List<Sample> samples, List<Durable> durable, List<Sent> sent, Map<String, Long> del) {
        return new History(samples, durable, sent, del);
    }

    /** p placed on east at epoch 1 at t=10, applied at t=10; runs on east from t=100 on. */
    private static final List<Durable> PLACED = List.of(new Durable(10, 0, "p", 1, "east", "PLACED", false));

    private static final List<Sent> APPLIED = List.of(new Sent(10, "east", "p", 1, "Apply"));

    @Test
    void aCleanRunBreaksNothing() {
        History h = history(
                List.of(
                        sample(100, Map.of("east", member(Map.of("p", copy("p", "c1", false)), FREE_NODE))),
                        sample(200, Map.of("east", member(Map.of("p", copy("p", "c1", true)), new Sample.Node(8, 8)))),
                        // east not read in this round: not taken for a deletion
                        sample(300, Map.of()),
                        // the user deleted p at t=250: its copy may go
                        sample(400, Map.of("east", member(Map.of(), FREE_NODE)))),
                List.of(
                        PLACED.get(0),
                        new Durable(250, 1, "p", 1, "east", "DELETING", false),
                        new Durable(390, 2, "p", 0, "", "", true)),
                List.of(APPLIED.get(0), new Sent(250, "east", "p", 1, "Delete")),
                Map.of("p", 250L));
        assertThat(Checker.check(h)).isEmpty();
    }

    @Test
    void aNodeAskedForMoreGpusThanItHasIsI1OncePerStretch() {
        History h = history(
                List.of(
                        sample(100, Map.of("east", member(Map.of(), new Sample.Node(8, 12)))),
                        sample(200, Map.of("east", member(Map.of(), new Sample.Node(8, 12)))),
                        sample(300, Map.of("east", member(Map.of(), new Sample.Node(8, 8))))),
                List.of(),
                List.of(),
                Map.of());
        assertThat(Checker.check(h))
                .containsExactly(new Violation("I1", 100, "east/n1: pods bound there ask for 12 GPUs; it has 8"));
    }

    @Test
    void aPlacementRunningOnTwoClustersInOneSampleIsI2() {
        History h = history(
                List.of(sample(
                        100,
                        Map.of(
                                "east", member(Map.of("p", copy("p", "c1", true)), FREE_NODE),
                                "west", member(Map.of("p", copy("p", "c2", true)), FREE_NODE)))),
                PLACED,
                APPLIED,
                Map.of());
        assertThat(Checker.check(h)).containsExactly(new Violation("I2", 100, "p runs on [east, west]"));
    }

    @Test
    void aCopyThatRanAndIsGoneOrMadeAgainWithoutAUserDeleteIsI3() {
        History h = history(
                List.of(
                        sample(
                                100,
                                Map.of(
                                        "east", member(Map.of("p", copy("p", "c1", true)), FREE_NODE),
                                        "west", member(Map.of("q", copy("q", "c9", true)), FREE_NODE))),
                        sample(
                                200,
                                Map.of(
                                        "east", member(Map.of(), FREE_NODE),
                                        "west", member(Map.of("q", copy("q", "c10", false)), FREE_NODE)))),
                List.of(PLACED.get(0), new Durable(10, 1, "q", 1, "west", "PLACED", false)),
                List.of(APPLIED.get(0), new Sent(10, "west", "q", 1, "Apply")),
                Map.of());
        assertThat(Checker.check(h))
                .containsExactlyInAnyOrder(
                        new Violation(
                                "I3", 200, "the copy of p on east ran and is gone, though its user had not deleted it"),
                        new Violation(
                                "I3",
                                200,
                                "the copy of q on west ran and is made again (uid c10), though its user had not"
                                        + " deleted it"));
    }

    @Test
    void aCopyThatNeverRanMayBeDeletedAndMadeElsewhere() {
        History h = history(
                List.of(
                        sample(100, Map.of("east", member(Map.of("p", copy("p", "c1", false)), FREE_NODE))),
                        sample(200, Map.of("east", member(Map.of(), FREE_NODE)))),
                List.of(PLACED.get(0), new Durable(150, 1, "p", 2, "west", "PLACED", false)),
                List.of(
                        APPLIED.get(0),
                        new Sent(150, "east", "p", 2, "Delete"),
                        new Sent(150, "west", "p", 2, "Apply")),
                Map.of());
        assertThat(Checker.check(h)).isEmpty();
    }

    @Test
    void anEpochThatFallsOrAMoveAtTheSameEpochIsI4() {
        History h = history(
                List.of(),
                List.of(
                        new Durable(10, 0, "p", 3, "east", "PLACED", false),
                        new Durable(20, 1, "p", 2, "east", "APPLIED", false),
                        new Durable(30, 2, "p", 2, "west", "PLACED", false)),
                List.of(),
                Map.of());
        assertThat(Checker.check(h))
                .containsExactly(
                        new Violation("I4", 20, "p: epoch 3 then 2"),
                        new Violation("I4", 30, "p: moved from east to west at epoch 2"));
    }

    @Test
    void aCommandNoCommittedRecordDecidedIsI5AndAFenceNeedsNone() {
        History h = history(
                List.of(),
                PLACED,
                List.of(
                        new Sent(5, "east", "p", 1, "Apply"), // before its record
                        new Sent(20, "west", "p", 1, "Apply"), // to another cluster than its record's
                        new Sent(30, "west", "p", Sent.FENCE, "Delete"),
                        new Sent(40, "east", "p", 1, "Delete")),
                Map.of());
        assertThat(Checker.check(h))
                .containsExactly(
                        new Violation(
                                "I5",
                                5,
                                "Apply of p to east at epoch 1 follows no committed record of it at that epoch on that"
                                        + " cluster"),
                        new Violation(
                                "I5",
                                20,
                                "Apply of p to west at epoch 1 follows no committed record of it at that epoch on that"
                                        + " cluster"));
    }

    @Test
    void aHistoryReadBackFromItsFileChecksTheSame(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        History h = history(
                List.of(sample(
                        100,
                        Map.of(
                                "east", member(Map.of("p", copy("p", "c1", true)), FREE_NODE),
                                "west", member(Map.of("p", copy("p", "c2", true)), FREE_NODE)))),
                PLACED,
                APPLIED,
                Map.of("p", 500L));
        h.write(dir.resolve("history.json"));
        History back = History.read(dir.resolve("history.json"));
        assertThat(back).isEqualTo(h);
        assertThat(Checker.check(back)).isEqualTo(Checker.check(h)).hasSize(1);
    }
}
