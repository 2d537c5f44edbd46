package dev.cartograph.agent.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which copies an agent cut off from Kafka deletes, and when (fence time 240 s in these tests). */
@Timeout(10)
class SelfFenceTest {
    static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    static final SelfFence.Settings FOUR_MINUTES = new SelfFence.Settings(Optional.of(Duration.ofMinutes(4)), false);
    final SelfFence.Copy pending = new SelfFence.Copy("p-pending", 1);
    final SelfFence.Copy running = new SelfFence.Copy("p-running", 3);
    final SelfFence.Copy unreported = new SelfFence.Copy("p-new", 1);
    final List<SelfFence.Copy> all = List.of(pending, running, unreported);

    private SelfFence fenceWithReports(SelfFence.Settings settings) {
        SelfFence fence = new SelfFence(settings, T0);
        fence.delivered("p-pending", 1, false);
        fence.delivered("p-running", 3, true);
        fence.delivered(T0.plusSeconds(10));
        return fence;
    }

    private static List<String> ids(List<SelfFence.Verdict> verdicts) {
        return verdicts.stream().map(v -> v.copy().placementId()).toList();
    }

    @Test
    void nothingIsFencedWhileSummariesReachKafka() {
        SelfFence fence = fenceWithReports(FOUR_MINUTES);
        assertThat(fence.due(T0.plusSeconds(249), all)).isEmpty(); // 239 s since the last acknowledged summary
        assertThat(fence.silent(T0.plusSeconds(249))).isFalse();
        assertThat(fence.silent(T0.plusSeconds(250))).isTrue();
        fence.delivered(T0.plusSeconds(240));
        assertThat(fence.due(T0.plusSeconds(479), all)).isEmpty();
    }

    @Test
    void cutOffPastTheFenceTimeItDeletesWhatTheBrokerWouldReplaceAndKeepsWhatItSawRunning() {
        SelfFence fence = fenceWithReports(FOUR_MINUTES);
        List<SelfFence.Verdict> due = fence.due(T0.plusSeconds(250), all);
        assertThat(ids(due)).containsExactlyInAnyOrder("p-pending", "p-new");
        assertThat(due.get(0).reason())
                .contains("no cluster summary reached Kafka for 240s")
                .contains("never runs twice");
        assertThat(fence.fencing()).isTrue();
        assertThat(fence.due(T0.plusSeconds(251), all)).isEmpty(); // each once
    }

    @Test
    void whenTheBrokerAlsoReplacesRunningGangsEveryCopyIsFenced() {
        SelfFence fence = fenceWithReports(new SelfFence.Settings(Optional.of(Duration.ofMinutes(4)), true));
        assertThat(ids(fence.due(T0.plusSeconds(250), all)))
                .containsExactlyInAnyOrder("p-pending", "p-running", "p-new");
    }

    @Test
    void aFailedDeleteIsDueAgainAndContactRegainedStartsAfresh() {
        SelfFence fence = fenceWithReports(FOUR_MINUTES);
        assertThat(ids(fence.due(T0.plusSeconds(250), all))).hasSize(2);
        fence.retry("p-pending");
        assertThat(ids(fence.due(T0.plusSeconds(251), all))).containsExactly("p-pending");
        fence.delivered(T0.plusSeconds(300));
        assertThat(fence.fencing()).isFalse();
        assertThat(fence.due(T0.plusSeconds(301), all)).isEmpty();
        assertThat(ids(fence.due(T0.plusSeconds(540), all))).containsExactlyInAnyOrder("p-pending", "p-new");
    }

    @Test
    void anAgentThatNeverReachesKafkaFencesFromItsStartAndACopyThatStartedSinceItsLastReportStillCounts() {
        SelfFence fence = new SelfFence(FOUR_MINUTES, T0);
        fence.delivered("p-running", 3, false); // the broker last heard: not started; it started while cut off
        assertThat(fence.due(T0.plusSeconds(239), all)).isEmpty();
        assertThat(ids(fence.due(T0.plusSeconds(240), all)))
                .containsExactlyInAnyOrder("p-pending", "p-running", "p-new");
    }

    @Test
    void aCopyThatIsGoneIsForgotten() {
        SelfFence fence = fenceWithReports(FOUR_MINUTES);
        fence.due(T0.plusSeconds(20), List.of(pending)); // p-running is gone from the cluster
        assertThat(ids(fence.due(T0.plusSeconds(250), List.of(running))))
                .containsExactly("p-running"); // back, never reported since
    }

    /** Copies as a new incarnation lists them: what earlier ones marked on each is all it knows. */
    @Test
    void aNewIncarnationKeepsOnlyTheCopiesMarkedAsReportedStartedAtTheEpochTheyHave() {
        SelfFence fence = new SelfFence(FOUR_MINUTES, T0); // started now; Kafka never reached
        SelfFence.Copy marked = new SelfFence.Copy("p-running", 3, Optional.of(3L));
        SelfFence.Copy reapplied = new SelfFence.Copy("p-reapplied", 4, Optional.of(3L)); // the mark is epoch 3's
        SelfFence.Copy unmarked = new SelfFence.Copy("p-pending", 1);
        List<SelfFence.Copy> listed = List.of(marked, reapplied, unmarked);

        assertThat(fence.due(T0.plusSeconds(239), listed)).isEmpty();
        List<SelfFence.Verdict> due = fence.due(T0.plusSeconds(240), listed);
        assertThat(ids(due)).containsExactlyInAnyOrder("p-reapplied", "p-pending");
        assertThat(due)
                .filteredOn(v -> v.copy().placementId().equals("p-reapplied"))
                .singleElement()
                .satisfies(v -> assertThat(v.reason()).contains("not reported at epoch 4"));
        // with running gangs re-placed too, the mark protects nothing
        assertThat(ids(new SelfFence(new SelfFence.Settings(Optional.of(Duration.ofMinutes(4)), true), T0)
                        .due(T0.plusSeconds(240), listed)))
                .containsExactlyInAnyOrder("p-running", "p-reapplied", "p-pending");
    }

    @Test
    void whatKafkaAcknowledgedInThisProcessWinsOverTheMark() {
        SelfFence fence = new SelfFence(FOUR_MINUTES, T0);
        SelfFence.Copy marked = new SelfFence.Copy("p-running", 3, Optional.of(3L));
        fence.delivered("p-running", 3, false); // it stopped (suspended): the broker now has it as not started
        assertThat(ids(fence.due(T0.plusSeconds(240), List.of(marked)))).containsExactly("p-running");
    }

    @Test
    void theMarkIsAskedForOnlyWhenKafkaAcknowledgedAStartedSummaryAtTheCopysEpoch() {
        SelfFence fence = new SelfFence(FOUR_MINUTES, T0);
        SelfFence.Copy atThree = new SelfFence.Copy("p-running", 3);
        assertThat(fence.remark(atThree)).isEmpty(); // nothing acknowledged: an earlier mark stays as it is

        fence.delivered("p-running", 3, true);
        assertThat(fence.remark(atThree)).contains(new SelfFence.Remark(atThree, Optional.of(3L)));
        SelfFence.Copy markedAtThree = new SelfFence.Copy("p-running", 3, Optional.of(3L));
        assertThat(fence.remark(markedAtThree)).isEmpty(); // already says so
        SelfFence.Copy reapplied = new SelfFence.Copy("p-running", 4, Optional.of(3L));
        assertThat(fence.remark(reapplied)).isEmpty(); // Kafka has nothing of epoch 4 yet: not marked for it

        fence.delivered("p-running", 3, false);
        assertThat(fence.remark(markedAtThree)).contains(new SelfFence.Remark(markedAtThree, Optional.empty()));
        assertThat(fence.remark(atThree)).isEmpty();
    }

    @Test
    void fencingOffNeverFencesAndTooShortAFenceTimeIsRefused() {
        assertThat(fenceWithReports(SelfFence.Settings.OFF).due(T0.plusSeconds(100_000), all))
                .isEmpty();
        assertThatThrownBy(() -> new SelfFence.Settings(Optional.of(Duration.ZERO), false))
                .hasMessageContaining("self-fence-after");
    }
}
