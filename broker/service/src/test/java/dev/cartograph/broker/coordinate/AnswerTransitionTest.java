package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.AnswerTransition.Step;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.CommandResult.Outcome;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What an agent's answer does to a placement on east at epoch 2, case by case, without a coordinator. */
@Timeout(60)
class AnswerTransitionTest {
    static final Instant T0 = CoordinatorHarness.T0;

    static Optional<PlacementRecord> placement(State state) {
        return Optional.of(CoordinatorHarness.record("u", state, Optional.of("east"), 2));
    }

    static CommandResult answer(String cluster, long epoch, Outcome outcome) {
        return new CommandResult(cluster, "u", epoch, "apply", outcome, "", T0);
    }

    static Step next(State state, Outcome outcome) {
        return AnswerTransition.next(placement(state), answer("east", 2, outcome), true, false);
    }

    @Test
    void anApplyAnsweredMakesAPlacedGangAppliedOnce() {
        assertThat(next(State.PLACED, Outcome.APPLIED)).isEqualTo(Step.APPLIED);
        assertThat(next(State.APPLIED, Outcome.APPLIED)).isEqualTo(Step.IGNORE); // answered again: nothing new
        assertThat(next(State.DELETING, Outcome.APPLIED)).isEqualTo(Step.IGNORE);
    }

    @Test
    void aRefusalSendsTheGangElsewhereUnlessItsCopyRunsThereThenOnlyTheChangeIsRefused() {
        for (Outcome refusal : new Outcome[] {Outcome.REJECTED, Outcome.FAILED}) {
            assertThat(next(State.PLACED, refusal)).isEqualTo(Step.REFUSED);
            assertThat(next(State.APPLIED, refusal)).isEqualTo(Step.REFUSED);
            assertThat(AnswerTransition.next(placement(State.APPLIED), answer("east", 2, refusal), true, true))
                    .isEqualTo(Step.CHANGE_REFUSED);
            assertThat(AnswerTransition.next(placement(State.PLACED), answer("east", 2, refusal), false, false))
                    .as("its hub object is gone: its deletion takes care of it")
                    .isEqualTo(Step.IGNORE);
            assertThat(next(State.DELETING, refusal)).isEqualTo(Step.IGNORE);
            assertThat(next(State.QUEUED, refusal)).isEqualTo(Step.IGNORE);
        }
    }

    @Test
    void aDeleteAnsweredFinishesADeletionAndNothingElse() {
        assertThat(next(State.DELETING, Outcome.DELETED)).isEqualTo(Step.DELETED);
        assertThat(next(State.APPLIED, Outcome.DELETED)).isEqualTo(Step.IGNORE);
    }

    @Test
    void staleOrNotFinalAnswersAndAnswersToAnotherEpochClusterOrNoPlacementAreIgnored() {
        assertThat(next(State.PLACED, Outcome.STALE)).isEqualTo(Step.IGNORE);
        assertThat(AnswerTransition.next(placement(State.PLACED), answer("east", 1, Outcome.APPLIED), true, false))
                .isEqualTo(Step.IGNORE);
        assertThat(AnswerTransition.next(placement(State.PLACED), answer("west", 2, Outcome.APPLIED), true, false))
                .isEqualTo(Step.IGNORE);
        assertThat(AnswerTransition.next(Optional.empty(), answer("east", 2, Outcome.DELETED), true, false))
                .isEqualTo(Step.IGNORE);
    }
}
