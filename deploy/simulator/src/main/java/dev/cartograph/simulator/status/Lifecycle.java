package dev.cartograph.simulator.status;

import dev.cartograph.interpreter.view.Phase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a workload controller would do next, from the workload's planned pods, its live pods and the
 * phase its current status reads: nothing, write the running status (every planned pod runs), or
 * complete it (a batch kind whose pods have all run for the run time, or have all succeeded).
 * Pure and thread-safe.
 */
public final class Lifecycle {
    /** Per-workload run time of a batch workload, in seconds. */
    public static final String RUN_SECONDS_ANNOTATION = "sim.cartograph.dev/run-seconds";

    public enum Step {
        NONE,
        WRITE_RUNNING,
        COMPLETE
    }

    private Lifecycle() {}

    public static Step decide(
            List<String> planned,
            Map<String, PodState> live,
            Phase current,
            Optional<StatusShapes> shapes,
            Duration runTime,
            Instant now) {
        if (shapes.isEmpty() || planned.isEmpty() || current == Phase.COMPLETED || current == Phase.FAILED) {
            return Step.NONE;
        }
        if (!live.keySet().containsAll(planned)) {
            return Step.NONE;
        }
        List<PodState> pods = planned.stream().map(live::get).toList();
        if (pods.stream().allMatch(p -> PodState.SUCCEEDED.equals(p.phase()))) {
            return shapes.get().batch() ? Step.COMPLETE : Step.NONE;
        }
        if (!pods.stream().allMatch(PodState::running)) {
            return Step.NONE;
        }
        Instant since = pods.stream()
                .map(p -> p.startTime().orElse(now))
                .max(Instant::compareTo)
                .orElse(now);
        if (shapes.get().batch() && !now.isBefore(since.plus(runTime))) {
            return Step.COMPLETE;
        }
        return current == Phase.RUNNING ? Step.NONE : Step.WRITE_RUNNING;
    }
}
