package dev.cartograph.simulator.status;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** What the lifecycle needs of one live pod: its phase, whether it is bound, when it started. Immutable. */
public record PodState(String name, String phase, boolean bound, Optional<Instant> startTime) {
    public static final String RUNNING = "Running";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";

    public PodState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(startTime, "startTime");
    }

    public boolean running() {
        return bound && RUNNING.equals(phase);
    }

    public boolean terminal() {
        return SUCCEEDED.equals(phase) || FAILED.equals(phase);
    }
}
