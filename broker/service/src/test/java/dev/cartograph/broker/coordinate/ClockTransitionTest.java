package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.ClockTransition.Seen;
import dev.cartograph.broker.coordinate.ClockTransition.Step;
import dev.cartograph.broker.coordinate.PlacementState.Watch;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the clock decides for one placement, case by case, without a coordinator. Timeouts: heartbeat 30 s, failover
 * 60 s, start 10 min; the placement was recorded at T0 on east at epoch 3; "now" is T0 + 2 min unless said.
 */
@Timeout(60)
class ClockTransitionTest {
    static final Instant T0 = CoordinatorHarness.T0;
    static final ClockTransition.Timeouts TIMEOUTS =
            new ClockTransition.Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(10), false);
    static final ClockTransition.Timeouts REPLACE_RUNNING =
            new ClockTransition.Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(10), true);

    /**
     * What is seen of the placement: by default in {@code state}, its cluster ready and listing it, its last command
     * sent 5 s ago, nothing pending, this instance active for 5 minutes.
     */
    static final class See {
        State state;
        Watch watch = new Watch(Optional.empty(), Optional.empty(), true);
        Instant now = T0.plusSeconds(120);
        Instant lastSent = now.minusSeconds(5);
        boolean answerPending;
        boolean ready = true;
        boolean alive = true;
        boolean started;
        String memberPhase = "";
        Optional<Long> pendingPods = Optional.empty();
        Optional<Boolean> listed = Optional.of(true);
        Optional<Instant> received = Optional.of(now.minusSeconds(1));
        String shownPhase = "";
        boolean resendable = true;
        Duration sinceActive = Duration.ofMinutes(5);

        See(State state) {
            this.state = state;
        }

        /** Its cluster silent for 90 s: neither ready nor alive. */
        See silent() {
            ready = false;
            alive = false;
            return this;
        }

        /** Its command was sent 31 s ago and not answered. */
        See unanswered() {
            lastSent = now.minusSeconds(31);
            return this;
        }

        Step next(ClockTransition.Timeouts timeouts) {
            PlacementRecord p = CoordinatorHarness.record("u", state, Optional.of("east"), 3);
            return ClockTransition.next(
                    new Seen(
                            p,
                            watch,
                            lastSent,
                            answerPending,
                            ready,
                            alive,
                            started,
                            memberPhase,
                            pendingPods,
                            listed,
                            received,
                            shownPhase,
                            resendable,
                            sinceActive,
                            now),
                    timeouts);
        }

        Step next() {
            return next(TIMEOUTS);
        }
    }

    @Test
    void aPlacedGangWhoseApplyWentUnansweredForAHeartbeatIsSentAgainUnlessItsAgentIsStillWorkingUpToIt() {
        assertThat(new See(State.PLACED).next()).isInstanceOf(Step.Wait.class); // sent 5 s ago: not yet
        assertThat(new See(State.PLACED).unanswered().next()).isInstanceOf(Step.Resend.class);
        See busy = new See(State.PLACED).unanswered();
        busy.answerPending = true;
        assertThat(busy.next()).isInstanceOf(Step.Wait.class);
        See changed = new See(State.PLACED).unanswered();
        changed.resendable = false; // its hub object changed since: the change is sent on its own
        assertThat(changed.next()).isInstanceOf(Step.Wait.class);
    }

    @Test
    void aDeleteWentUnansweredIsSentAgainButNotToAClusterThatIsNotReady() {
        assertThat(new See(State.DELETING).unanswered().next()).isInstanceOf(Step.Resend.class);
        See notReady = new See(State.DELETING).unanswered();
        notReady.ready = false;
        assertThat(notReady.next()).isInstanceOf(Step.Wait.class);
    }

    @Test
    void aGangThatNeverStartedOnAClusterSilentPastTheFailoverTimeoutIsTakenBackAtTheNextEpoch() {
        for (State state : new State[] {State.PLACED, State.APPLIED}) {
            assertThat(new See(state).silent().next())
                    .isEqualTo(new Step.TakeBack(
                            "east lost (silent longer than PT1M); re-placing at epoch 4",
                            EventReason.ClusterLost,
                            false));
        }
    }

    @Test
    void aRunningGangOnALostClusterStaysAndIsReportedOncePerEpochUnlessReplaceRunningIsOn() {
        See running = new See(State.APPLIED).silent();
        running.started = true;
        running.memberPhase = "Running";
        Step first = running.next();
        assertThat(first)
                .isEqualTo(new Step.ReportLost(
                        "east has been silent longer than PT1M; the gang was Running there and stays placed"
                                + " (replace-running is off)",
                        new Watch(Optional.of(3L), Optional.empty(), true)));
        running.watch = first.watch();
        assertThat(running.next()).isEqualTo(new Step.Wait(first.watch()));
        assertThat(running.next(REPLACE_RUNNING)).isInstanceOf(Step.TakeBack.class);
    }

    @Test
    void noClusterCountsAsLostBeforeItsAgentHadAFailoverTimeoutToReportToANewLeader() {
        for (State state : new State[] {State.PLACED, State.APPLIED}) {
            See justActive = new See(state).silent();
            justActive.sinceActive = Duration.ofSeconds(59);
            assertThat(justActive.next()).isInstanceOf(Step.Wait.class);
        }
    }

    @Test
    void aGangItsMemberHasNotStartedWithinTheStartTimeoutIsTakenBackAndAvoidsThatCluster() {
        See stuck = new See(State.APPLIED);
        stuck.pendingPods = Optional.of(2L);
        stuck.now = T0.plus(Duration.ofMinutes(11));
        assertThat(stuck.next())
                .isEqualTo(new Step.TakeBack(
                        "east did not start it within PT10M (2 pods still unscheduled there); re-placing at epoch 4 on"
                                + " another cluster",
                        EventReason.Requeued,
                        true));
        stuck.now = T0.plus(Duration.ofMinutes(9));
        assertThat(stuck.next()).isInstanceOf(Step.Wait.class);
        stuck.now = T0.plus(Duration.ofMinutes(11));
        stuck.pendingPods = Optional.of(0L);
        assertThat(stuck.next()).isInstanceOf(Step.Wait.class);
    }

    @Test
    void aCopyItsClusterStoppedListingForAHeartbeatIsTakenBackUnlessItHadFinished() {
        See missing = new See(State.APPLIED);
        missing.listed = Optional.of(false);
        Instant received = missing.received.orElseThrow();
        Step first = missing.next(); // the first summary without it: remembered since when
        assertThat(first).isEqualTo(new Step.Wait(new Watch(Optional.empty(), Optional.of(received), true)));
        missing.watch = first.watch(); // a heartbeat later, still missing: taken back
        missing.received = Optional.of(received.plusSeconds(30));
        missing.now = received.plusSeconds(31);
        assertThat(missing.next())
                .isEqualTo(new Step.TakeBack(
                        "its copy on east is gone (deleted there, or fenced by its agent after losing Kafka);"
                                + " re-placing at epoch 4",
                        EventReason.Requeued,
                        false));
        missing.shownPhase = "Completed";
        assertThat(missing.next()).isInstanceOf(Step.Wait.class);
        missing.shownPhase = "Running"; // a copy its agent never listed (one it cannot watch) is never missed
        missing.watch = new Watch(Optional.empty(), Optional.of(received), false);
        assertThat(missing.next()).isEqualTo(new Step.Wait(new Watch(Optional.empty(), Optional.empty(), false)));
    }

    @Test
    void queuedSuspendedAndFailedPlacementsAreLeftToTheirOwnInputs() {
        for (State state : new State[] {State.QUEUED, State.SUSPENDED, State.FAILED}) {
            assertThat(new See(state).silent().unanswered().next()).isInstanceOf(Step.Wait.class);
        }
    }
}
