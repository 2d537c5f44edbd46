package dev.cartograph.simulator.status;

import dev.cartograph.interpreter.view.Phase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a workload controller would do next, from the workload's planned pods, its live pods, whether
 * its spec is suspended and the phase its current status reads: nothing, write the running status
 * (every planned pod runs), complete it (a batch kind whose pods have all run for the run time, or have
 * all succeeded), write the suspended status (its spec is suspended; its pods are deleted elsewhere) or
 * the resumed one (its spec is no longer suspended but its status still reads Suspended). A finished
 * workload stays as it is, suspended or not, as the Job and training-operator controllers leave it.
 * Pure and thread-safe.
 */
public final class Lifecycle {
    /** Per-workload run time of a batch workload, in seconds. */
    public static final String RUN_SECONDS_ANNOTATION = "sim.cartograph.dev/run-seconds";

    public enum Step {
        NONE,
        WRITE_RUNNING,
        COMPLETE,
        WRITE_SUSPENDED,
        WRITE_RESUMED
    }

    private Lifecycle() {}

    public static Step decide(
            List<String> planned,
            Map<String, PodState> live,
            boolean suspended,
            Phase current,
            Optional<StatusShapes> shapes,
            Duration runTime,
            Instant now) {
        if (shapes.isEmpty() || current == Phase.COMPLETED || current == Phase.FAILED) {
            return Step.NONE;
        }
        if (suspended) {
            return current != Phase.SUSPENDED && shapes.get().suspended().isPresent()
                    ? Step.WRITE_SUSPENDED
                    : Step.NONE;
        }
        if (current == Phase.SUSPENDED && shapes.get().resumed().isPresent()) {
            return Step.WRITE_RESUMED;
        }
        if (planned.isEmpty()) {
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
