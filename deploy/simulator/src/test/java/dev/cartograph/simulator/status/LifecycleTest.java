package dev.cartograph.simulator.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.simulator.status.Lifecycle.Step;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LifecycleTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Optional<StatusShapes> BATCH =
            Optional.of(new StatusShapes(F.objectNode(), Optional.of(F.objectNode()), Map.of()));
    private static final Optional<StatusShapes> SERVICE =
            Optional.of(new StatusShapes(F.objectNode(), Optional.empty(), Map.of()));
    private static final Optional<StatusShapes> SUSPENDABLE = Optional.of(new StatusShapes(
            F.objectNode(),
            Optional.of(F.objectNode()),
            Optional.of(F.objectNode()),
            Optional.of(F.objectNode()),
            Map.of()));
    private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");
    private static final Duration RUN = Duration.ofSeconds(30);

    private static PodState running(String name, Instant start) {
        return new PodState(name, PodState.RUNNING, true, Optional.of(start));
    }

    @Test
    void writesRunningOnceEveryPlannedPodRuns() {
        Map<String, PodState> live = Map.of("a", running("a", T0), "b", running("b", T0));
        assertThat(Lifecycle.decide(List.of("a", "b"), live, false, Phase.UNDEFINED, BATCH, RUN, T0))
                .isEqualTo(Step.WRITE_RUNNING);
        assertThat(Lifecycle.decide(List.of("a", "b"), live, false, Phase.RUNNING, BATCH, RUN, T0))
                .isEqualTo(Step.NONE);
    }

    @Test
    void waitsWhileAPodIsMissingOrPending() {
        Map<String, PodState> live =
                Map.of("a", running("a", T0), "b", new PodState("b", "Pending", false, Optional.empty()));
        assertThat(Lifecycle.decide(List.of("a", "b"), live, false, Phase.UNDEFINED, BATCH, RUN, T0))
                .isEqualTo(Step.NONE);
        assertThat(Lifecycle.decide(
                        List.of("a", "b", "c"), Map.of("a", running("a", T0)), false, Phase.UNDEFINED, BATCH, RUN, T0))
                .isEqualTo(Step.NONE);
    }

    @Test
    void completesABatchWorkloadRunTimeAfterItsLastPodStarted() {
        Map<String, PodState> live = Map.of("a", running("a", T0), "b", running("b", T0.plusSeconds(10)));
        assertThat(Lifecycle.decide(List.of("a", "b"), live, false, Phase.RUNNING, BATCH, RUN, T0.plusSeconds(39)))
                .isEqualTo(Step.NONE);
        assertThat(Lifecycle.decide(List.of("a", "b"), live, false, Phase.RUNNING, BATCH, RUN, T0.plusSeconds(40)))
                .isEqualTo(Step.COMPLETE);
    }

    @Test
    void neverCompletesAServiceOrAKindWithoutShapes() {
        Map<String, PodState> live = Map.of("a", running("a", T0));
        assertThat(Lifecycle.decide(
                        List.of("a"), live, false, Phase.RUNNING, SERVICE, RUN, T0.plus(Duration.ofDays(1))))
                .isEqualTo(Step.NONE);
        assertThat(Lifecycle.decide(List.of("a"), live, false, Phase.UNDEFINED, Optional.empty(), RUN, T0))
                .isEqualTo(Step.NONE);
    }

    @Test
    void leavesACompletedWorkloadAlone() {
        Map<String, PodState> live = Map.of("a", new PodState("a", PodState.SUCCEEDED, true, Optional.of(T0)));
        assertThat(Lifecycle.decide(List.of("a"), live, false, Phase.COMPLETED, BATCH, RUN, T0))
                .isEqualTo(Step.NONE);
        assertThat(Lifecycle.decide(List.of("a"), live, false, Phase.RUNNING, BATCH, RUN, T0))
                .isEqualTo(Step.COMPLETE);
    }

    @Test
    void writesSuspendedOnceWhenTheSpecIsSuspendedWhateverItsPodsDo() {
        Map<String, PodState> live = Map.of("a", running("a", T0));
        assertThat(Lifecycle.decide(List.of("a"), live, true, Phase.RUNNING, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.WRITE_SUSPENDED);
        assertThat(Lifecycle.decide(List.of("a"), Map.of(), true, Phase.INITIALIZING, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.WRITE_SUSPENDED);
        assertThat(Lifecycle.decide(List.of("a"), Map.of(), true, Phase.SUSPENDED, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.NONE);
        // a kind without a suspended shape gets its pods deleted but no status
        assertThat(Lifecycle.decide(List.of("a"), Map.of(), true, Phase.RUNNING, BATCH, RUN, T0))
                .isEqualTo(Step.NONE);
    }

    @Test
    void writesResumedWhenTheSpecNoLongerSuspendsButTheStatusStillReadsSuspended() {
        assertThat(Lifecycle.decide(List.of("a"), Map.of(), false, Phase.SUSPENDED, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.WRITE_RESUMED);
        Map<String, PodState> live = Map.of("a", running("a", T0));
        assertThat(Lifecycle.decide(List.of("a"), live, false, Phase.INITIALIZING, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.WRITE_RUNNING);
    }

    @Test
    void aFinishedWorkloadIsNotSuspended() {
        assertThat(Lifecycle.decide(List.of("a"), Map.of(), true, Phase.COMPLETED, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.NONE);
        assertThat(Lifecycle.decide(List.of("a"), Map.of(), true, Phase.FAILED, SUSPENDABLE, RUN, T0))
                .isEqualTo(Step.NONE);
    }
}
