package dev.cartograph.simulator;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a simulated member behaves. Immutable; validated on construction.
 *
 * @param cluster           the member's name, for logs (MDC key {@code cluster})
 * @param workloadSelector  label selector of the workloads to run, e.g. the agent's
 *                          {@code app.kubernetes.io/managed-by=cartograph-agent}
 * @param reconcileInterval pause between reconcile passes of a started simulator
 * @param batchRunTime      how long a batch workload runs once all its pods run (per workload:
 *                          annotation {@value #RUN_SECONDS_ANNOTATION})
 * @param clock             the simulator's time: pod start times, run times, status timestamps
 */
public record SimulatorSettings(
        String cluster, String workloadSelector, Duration reconcileInterval, Duration batchRunTime, Clock clock) {
    public static final String AGENT_SELECTOR = "app.kubernetes.io/managed-by=cartograph-agent";
    public static final String RUN_SECONDS_ANNOTATION =
            dev.cartograph.simulator.status.Lifecycle.RUN_SECONDS_ANNOTATION;

    public SimulatorSettings {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(workloadSelector, "workloadSelector");
        Objects.requireNonNull(clock, "clock");
        if (workloadSelector.isBlank()) {
            throw new IllegalArgumentException(
                    "workloadSelector must not be blank (the simulator runs only selected workloads)");
        }
        if (reconcileInterval.isNegative() || reconcileInterval.isZero()) {
            throw new IllegalArgumentException("reconcileInterval must be positive, was " + reconcileInterval);
        }
        if (batchRunTime.isNegative()) {
            throw new IllegalArgumentException("batchRunTime must not be negative, was " + batchRunTime);
        }
    }

    /** Cluster {@code member}, the agent's selector, 200 ms passes, 30 s batch runs, the system clock. */
    public static SimulatorSettings defaults() {
        return new SimulatorSettings(
                "member", AGENT_SELECTOR, Duration.ofMillis(200), Duration.ofSeconds(30), Clock.systemUTC());
    }

    public SimulatorSettings withCluster(String name) {
        return new SimulatorSettings(name, workloadSelector, reconcileInterval, batchRunTime, clock);
    }

    public SimulatorSettings withBatchRunTime(Duration runTime) {
        return new SimulatorSettings(cluster, workloadSelector, reconcileInterval, runTime, clock);
    }

    public SimulatorSettings withClock(Clock newClock) {
        return new SimulatorSettings(cluster, workloadSelector, reconcileInterval, batchRunTime, newClock);
    }

    public SimulatorSettings withReconcileInterval(Duration interval) {
        return new SimulatorSettings(cluster, workloadSelector, interval, batchRunTime, clock);
    }

    public SimulatorSettings withWorkloadSelector(String selector) {
        return new SimulatorSettings(cluster, selector, reconcileInterval, batchRunTime, clock);
    }
}
