package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.coordinate.PlacementState.Watch;
import dev.cartograph.broker.coordinate.PlacementTransition.Observed;
import dev.cartograph.broker.coordinate.PlacementTransition.Seen;
import dev.cartograph.broker.coordinate.PlacementTransition.Step;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.CommandResult.Outcome;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What happens to one placement, state by state, for each thing observed of it — its hub object changed or gone, its
 * agent's answer, the clock — without a coordinator. Placements here are on east at epoch 2 (3 for the clock).
 */
@Timeout(60)
class PlacementTransitionTest {
    static final Instant T0 = CoordinatorHarness.T0;

    /**
     * Every state against every kind of observation, by hand: the object seen again unchanged, the object gone, the
     * agent's answer (applied, deleted, refused) to the current command, and a quiet tick (everything heard, the last
     * command sent 5 s ago). Row by row, the step each leads to; the sections below vary what is observed.
     */
    @Test
    void everyStateHasAStepForEveryObservation() {
        JsonNode job = CoordinatorHarness.job("j", "u", T0, 8, "", "");
        HubObject object = HubObject.parse(job, PriorityClasses.NONE, T0).orElseThrow();
        Instant now = T0.plusSeconds(120);
        Seen quiet = new Seen(
                Watch.NONE,
                now.minusSeconds(5),
                false,
                true,
                true,
                false,
                "",
                Optional.empty(),
                Optional.of(true),
                Optional.of(now.minusSeconds(1)),
                true,
                "",
                true,
                Duration.ofMinutes(5),
                now);
        PlacementTransition.Timeouts timeouts = new PlacementTransition.Timeouts(
                Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(10), false);
        Observed[] seen = {
            new Observed.HubChanged(object, Optional.empty(), false),
            new Observed.HubGone(),
            new Observed.Answer(new CommandResult("east", "u", 2, "apply", Outcome.APPLIED, "", T0), true, false),
            new Observed.Answer(new CommandResult("east", "u", 2, "delete", Outcome.DELETED, "", T0), true, false),
            new Observed.Answer(new CommandResult("east", "u", 2, "apply", Outcome.REJECTED, "quota", T0), true, false),
            new Observed.Tick(quiet, timeouts)
        };
        Step wait = new Step.Wait(Watch.NONE);
        java.util.Map<String, Step[]> expected = new java.util.LinkedHashMap<>();
        expected.put("none", new Step[] {new Step.Submit(1), Step.KEEP, Step.KEEP, Step.KEEP, Step.KEEP, Step.KEEP});
        expected.put(
                "QUEUED", new Step[] {Step.REQUEUE_IF_CHANGED, Step.DELETE, Step.KEEP, Step.KEEP, Step.KEEP, wait});
        expected.put("PLACED", new Step[] {Step.UPDATE, Step.DELETE, Step.APPLIED, Step.KEEP, Step.REFUSED, wait});
        Step listed = new Step.Wait(new Watch(Optional.empty(), Optional.empty(), true)); // its copy listed: remembered
        expected.put("APPLIED", new Step[] {Step.UPDATE, Step.DELETE, Step.KEEP, Step.KEEP, Step.REFUSED, listed});
        expected.put(
                "SUSPENDED", new Step[] {Step.SUSPENDED_CHANGED, Step.DELETE, Step.KEEP, Step.KEEP, Step.KEEP, wait});
        expected.put("FAILED", new Step[] {Step.HOLD, Step.DELETE, Step.KEEP, Step.KEEP, Step.KEEP, wait});
        expected.put("DELETING", new Step[] {Step.KEEP, Step.KEEP, Step.KEEP, Step.DELETED, Step.KEEP, wait});
        for (var row : expected.entrySet()) {
            Optional<PlacementRecord> p = row.getKey().equals("none")
                    ? Optional.empty()
                    : Optional.of(CoordinatorHarness.record("u", State.valueOf(row.getKey()), Optional.of("east"), 2));
            for (int i = 0; i < seen.length; i++) {
                assertThat(PlacementTransition.next(p, seen[i]))
                        .as(row.getKey() + " × " + seen[i].getClass().getSimpleName() + " #" + i)
                        .isEqualTo(row.getValue()[i]);
            }
        }
        assertThat(expected.keySet()).hasSize(State.values().length + 1); // every state, and none
    }

    /** A change of the hub object. */
    @Nested
    class HubChanged {
        static final JsonNode JOB = CoordinatorHarness.job("j", "u", T0, 8, "", "");

        static HubObject object(JsonNode raw) {
            return HubObject.parse(raw, PriorityClasses.NONE, T0).orElseThrow();
        }

        static Optional<PlacementRecord> placement(State state, Optional<String> cluster) {
            return Optional.of(CoordinatorHarness.record("u", state, cluster, 2));
        }

        static Step hub(State state) {
            return PlacementTransition.next(
                    placement(state, Optional.of("east")),
                    new Observed.HubChanged(object(JOB), Optional.empty(), false));
        }

        @Test
        void aNewObjectIsSubmittedAndOneBeingDeletedIsDeletedInWhateverStateItIs() {
            assertThat(PlacementTransition.next(
                            Optional.empty(), new Observed.HubChanged(object(JOB), Optional.empty(), false)))
                    .isEqualTo(new Step.Submit(1));
            ObjectNode deleting = JOB.deepCopy();
            deleting.with("metadata").put("deletionTimestamp", T0.toString());
            for (State state : State.values()) { // one whose deletion is under way already: its answer finishes it
                assertThat(PlacementTransition.next(
                                placement(state, Optional.of("east")),
                                new Observed.HubChanged(object(deleting), Optional.empty(), false)))
                        .as(state.name())
                        .isEqualTo(state == State.DELETING ? Step.KEEP : Step.DELETE);
            }
            assertThat(PlacementTransition.next(
                            Optional.empty(), new Observed.HubChanged(object(deleting), Optional.empty(), false)))
                    .isEqualTo(Step.DELETE);
        }

        @Test
        void eachStateHandsTheChangeToItsPart() {
            assertThat(hub(State.PLACED)).isEqualTo(Step.UPDATE);
            assertThat(hub(State.APPLIED)).isEqualTo(Step.UPDATE);
            assertThat(hub(State.QUEUED)).isEqualTo(Step.REQUEUE_IF_CHANGED);
            assertThat(hub(State.SUSPENDED)).isEqualTo(Step.SUSPENDED_CHANGED);
            assertThat(hub(State.DELETING)).isEqualTo(Step.KEEP);
            assertThat(PlacementTransition.next(
                            placement(State.PLACED, Optional.empty()),
                            new Observed.HubChanged(object(JOB), Optional.empty(), false)))
                    .isEqualTo(Step.HOLD);
        }

        @Test
        void aGangWithACopyIsSuspendedWhenItsObjectSuspendsOtherwiseItsStateSaysWhatSuspendingMeans() {
            for (State state : State.values()) {
                Step step = PlacementTransition.next(
                        placement(state, Optional.of("east")),
                        new Observed.HubChanged(object(JOB), Optional.empty(), true));
                Step expected = switch (state) {
                    case PLACED, APPLIED -> Step.SUSPEND; // its copy is suspended there, its nodes freed
                    case QUEUED -> Step.REQUEUE_IF_CHANGED; // its attempt holds it, suspended
                    case SUSPENDED -> Step.SUSPENDED_CHANGED; // still suspended: its copy follows the spec
                    case FAILED -> Step.HOLD;
                    case DELETING -> Step.KEEP;
                };
                assertThat(step).as(state.name()).isEqualTo(expected);
            }
            assertThat(PlacementTransition.next(
                            placement(State.PLACED, Optional.empty()),
                            new Observed.HubChanged(object(JOB), Optional.empty(), true)))
                    .as("placed nowhere")
                    .isEqualTo(Step.HOLD);
        }

        @Test
        void aFailedGangIsSubmittedAgainOnlyOnceItsSpecChangedSinceItFailed() {
            Optional<PlacementRecord> failed = placement(State.FAILED, Optional.empty());
            assertThat(PlacementTransition.next(failed, new Observed.HubChanged(object(JOB), Optional.empty(), false)))
                    .isEqualTo(Step.HOLD);
            assertThat(PlacementTransition.next(
                            failed, new Observed.HubChanged(object(JOB), Optional.of(JOB.path("spec")), false)))
                    .isEqualTo(Step.HOLD);
            JsonNode changed = CoordinatorHarness.job("j", "u", T0, 4, "", "");
            assertThat(PlacementTransition.next(
                            failed, new Observed.HubChanged(object(changed), Optional.of(JOB.path("spec")), false)))
                    .isEqualTo(new Step.Submit(3));
        }
    }

    /** The hub object gone without the broker's finalizer running (a forced delete). */
    @Nested
    class HubGone {
        @Test
        void itsCopyIsDeletedWhateverItsStateUnlessItsDeletionIsUnderWayOrItHasNoPlacement() {
            for (State state : State.values()) {
                Step step = PlacementTransition.next(
                        Optional.of(CoordinatorHarness.record("u", state, Optional.of("east"), 2)),
                        new Observed.HubGone());
                assertThat(step).as(state.name()).isEqualTo(state == State.DELETING ? Step.KEEP : Step.DELETE);
            }
            assertThat(PlacementTransition.next(Optional.empty(), new Observed.HubGone()))
                    .isEqualTo(Step.KEEP);
        }
    }

    /** An agent's answer to a command. */
    @Nested
    class Answers {

        static Optional<PlacementRecord> onEast(State state) {
            return Optional.of(CoordinatorHarness.record("u", state, Optional.of("east"), 2));
        }

        static CommandResult answer(String cluster, long epoch, Outcome outcome) {
            return new CommandResult(cluster, "u", epoch, "apply", outcome, "", T0);
        }

        static Step answered(State state, Outcome outcome) {
            return PlacementTransition.next(
                    onEast(state), new Observed.Answer(answer("east", 2, outcome), true, false));
        }

        @Test
        void anApplyAnsweredMakesAPlacedGangAppliedOnce() {
            assertThat(answered(State.PLACED, Outcome.APPLIED)).isEqualTo(Step.APPLIED);
            assertThat(answered(State.APPLIED, Outcome.APPLIED)).isEqualTo(Step.KEEP); // answered again: nothing new
            assertThat(answered(State.DELETING, Outcome.APPLIED)).isEqualTo(Step.KEEP);
        }

        @Test
        void aRefusalSendsTheGangElsewhereUnlessItsCopyRunsThereThenOnlyTheChangeIsRefused() {
            for (Outcome refusal : new Outcome[] {Outcome.REJECTED, Outcome.FAILED}) {
                assertThat(answered(State.PLACED, refusal)).isEqualTo(Step.REFUSED);
                assertThat(answered(State.APPLIED, refusal)).isEqualTo(Step.REFUSED);
                assertThat(PlacementTransition.next(
                                onEast(State.APPLIED), new Observed.Answer(answer("east", 2, refusal), true, true)))
                        .isEqualTo(Step.CHANGE_REFUSED);
                assertThat(PlacementTransition.next(
                                onEast(State.PLACED), new Observed.Answer(answer("east", 2, refusal), false, false)))
                        .as("its hub object is gone: its deletion takes care of it")
                        .isEqualTo(Step.KEEP);
                assertThat(answered(State.DELETING, refusal)).isEqualTo(Step.KEEP);
                assertThat(answered(State.QUEUED, refusal)).isEqualTo(Step.KEEP);
            }
        }

        @Test
        void aDeleteAnsweredFinishesADeletionAndNothingElse() {
            assertThat(answered(State.DELETING, Outcome.DELETED)).isEqualTo(Step.DELETED);
            assertThat(answered(State.APPLIED, Outcome.DELETED)).isEqualTo(Step.KEEP);
        }

        @Test
        void staleOrNotFinalAnswersAndAnswersToAnotherEpochClusterOrNoPlacementAreIgnored() {
            assertThat(answered(State.PLACED, Outcome.STALE)).isEqualTo(Step.KEEP);
            assertThat(PlacementTransition.next(
                            onEast(State.PLACED), new Observed.Answer(answer("east", 1, Outcome.APPLIED), true, false)))
                    .isEqualTo(Step.KEEP);
            assertThat(PlacementTransition.next(
                            onEast(State.PLACED), new Observed.Answer(answer("west", 2, Outcome.APPLIED), true, false)))
                    .isEqualTo(Step.KEEP);
            assertThat(PlacementTransition.next(
                            Optional.empty(), new Observed.Answer(answer("east", 2, Outcome.DELETED), true, false)))
                    .isEqualTo(Step.KEEP);
        }
    }

    /**
     * The clock. Timeouts: heartbeat 30 s, failover 60 s, start 10 min; the placement was recorded at T0 on east at
     * epoch 3; "now" is T0 + 2 min unless said.
     */
    @Nested
    class Clock {
        static final PlacementTransition.Timeouts TIMEOUTS = new PlacementTransition.Timeouts(
                Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(10), false);
        static final PlacementTransition.Timeouts REPLACE_RUNNING = new PlacementTransition.Timeouts(
                Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(10), true);

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
            boolean kindWatched = true;
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

            Step next(PlacementTransition.Timeouts timeouts) {
                PlacementRecord p = CoordinatorHarness.record("u", state, Optional.of("east"), 3);
                return PlacementTransition.next(
                        Optional.of(p),
                        new Observed.Tick(
                                new Seen(
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
                                        kindWatched,
                                        shownPhase,
                                        resendable,
                                        sinceActive,
                                        now),
                                timeouts));
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
            running.watch = ((Step.ReportLost) first).watch();
            assertThat(running.next()).isEqualTo(new Step.Wait(((Step.ReportLost) first).watch()));
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
            missing.watch = ((Step.Wait) first).watch(); // a heartbeat later, still missing: taken back
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

        /**
         * Issue 33, finding 3: an agent that cannot watch the copy's kind (discovery answered 429 at its start) stops
         * listing it; that is not the copy being gone. Before, the running gang was taken back and placed again while
         * its copy ran on.
         */
        @Test
        void aCopyOfAKindItsAgentCannotWatchNowIsNotMissedAndIsJudgedAfreshOnceItCan() {
            See unwatched = new See(State.APPLIED);
            unwatched.listed = Optional.of(false);
            unwatched.kindWatched = false;
            Instant received = unwatched.received.orElseThrow();
            unwatched.watch =
                    new Watch(Optional.empty(), Optional.of(received.minusSeconds(60)), true); // unlisted 60 s
            unwatched.shownPhase = "Running";
            assertThat(unwatched.next()).isEqualTo(new Step.Wait(new Watch(Optional.empty(), Optional.empty(), true)));
            unwatched.watch = new Watch(Optional.empty(), Optional.empty(), true);
            unwatched.kindWatched = true; // watched again and still not listed: the heartbeat's grace starts now
            assertThat(unwatched.next())
                    .isEqualTo(new Step.Wait(new Watch(Optional.empty(), Optional.of(received), true)));
        }

        @Test
        void queuedSuspendedAndFailedPlacementsAreLeftToTheirOwnInputs() {
            for (State state : new State[] {State.QUEUED, State.SUSPENDED, State.FAILED}) {
                assertThat(new See(state).silent().unanswered().next()).isInstanceOf(Step.Wait.class);
            }
        }
    }
}
