package dev.cartograph.broker.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.coordinate.HubTransition.Step;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a change of a hub object does to its placement, in every state, without a coordinator. */
@Timeout(60)
class HubTransitionTest {
    static final Instant T0 = CoordinatorHarness.T0;
    static final JsonNode JOB = CoordinatorHarness.job("j", "u", T0, 8, "", "");

    static HubObject object(JsonNode raw) {
        return HubObject.parse(raw, PriorityClasses.NONE, T0).orElseThrow();
    }

    static Optional<PlacementRecord> placement(State state, Optional<String> cluster) {
        return Optional.of(CoordinatorHarness.record("u", state, cluster, 2));
    }

    static Step next(State state) {
        return HubTransition.next(placement(state, Optional.of("east")), object(JOB), Optional.empty());
    }

    @Test
    void aNewObjectIsSubmittedAndOneBeingDeletedIsDeletedWhateverItsState() {
        assertThat(HubTransition.next(Optional.empty(), object(JOB), Optional.empty()))
                .isEqualTo(Step.SUBMIT);
        ObjectNode deleting = JOB.deepCopy();
        deleting.with("metadata").put("deletionTimestamp", T0.toString());
        for (State state : State.values()) {
            assertThat(HubTransition.next(placement(state, Optional.of("east")), object(deleting), Optional.empty()))
                    .isEqualTo(Step.DELETE);
        }
        assertThat(HubTransition.next(Optional.empty(), object(deleting), Optional.empty()))
                .isEqualTo(Step.DELETE);
    }

    @Test
    void eachStateHandsTheChangeToItsPart() {
        assertThat(next(State.PLACED)).isEqualTo(Step.UPDATE);
        assertThat(next(State.APPLIED)).isEqualTo(Step.UPDATE);
        assertThat(next(State.QUEUED)).isEqualTo(Step.REQUEUE_IF_CHANGED);
        assertThat(next(State.SUSPENDED)).isEqualTo(Step.SUSPENSION);
        assertThat(next(State.DELETING)).isEqualTo(Step.NONE);
        assertThat(HubTransition.next(placement(State.PLACED, Optional.empty()), object(JOB), Optional.empty()))
                .isEqualTo(Step.HOLD);
    }

    @Test
    void aFailedGangIsSubmittedAgainOnlyOnceItsSpecChangedSinceItFailed() {
        Optional<PlacementRecord> failed = placement(State.FAILED, Optional.empty());
        assertThat(HubTransition.next(failed, object(JOB), Optional.empty())).isEqualTo(Step.HOLD);
        assertThat(HubTransition.next(failed, object(JOB), Optional.of(JOB.path("spec"))))
                .isEqualTo(Step.HOLD);
        JsonNode changed = CoordinatorHarness.job("j", "u", T0, 4, "", "");
        assertThat(HubTransition.next(failed, object(changed), Optional.of(JOB.path("spec"))))
                .isEqualTo(Step.RESUBMIT);
    }
}
