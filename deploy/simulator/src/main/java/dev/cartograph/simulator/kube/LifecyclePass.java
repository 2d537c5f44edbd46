package dev.cartograph.simulator.kube;

import dev.cartograph.simulator.schedule.PodRef;
import dev.cartograph.simulator.status.Lifecycle;
import dev.cartograph.simulator.status.PodState;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Advances one workload as its controller would: writes the running status once every planned pod
 * runs; for batch kinds, after the run time marks the pods Succeeded and writes the completed
 * status. Not thread-safe (one pass at a time).
 */
final class LifecyclePass {
    private static final Logger LOG = LoggerFactory.getLogger(LifecyclePass.class);

    private final PodWriter pods;
    private final StatusWriter statuses;
    private final Duration batchRunTime;

    LifecyclePass(PodWriter pods, StatusWriter statuses, Duration batchRunTime) {
        this.pods = pods;
        this.statuses = statuses;
        this.batchRunTime = batchRunTime;
    }

    void advance(Reconciler.Active a, Map<PodRef, Pod> live, Instant now) {
        Workload w = a.workload();
        Map<String, PodState> states = new LinkedHashMap<>();
        a.plan().pods().forEach(p -> {
            Pod pod = live.get(new PodRef(w.namespace(), p.name()));
            if (pod != null
                    && Reading.controller(pod)
                            .map(o -> w.uid().equals(o.getUid()))
                            .orElse(false)) {
                states.put(p.name(), Reading.state(pod));
            }
        });
        List<String> planned = a.plan().pods().stream().map(p -> p.name()).toList();
        switch (Lifecycle.decide(planned, states, a.view().phase(), a.shapes(), runTime(w), now)) {
            case WRITE_RUNNING -> {
                statuses.write(w.kind(), w.resource(), a.shapes().orElseThrow().runningAt(now));
                LOG.info("{} is running: all {} pods run", w.describe(), planned.size());
            }
            case COMPLETE -> {
                for (String name : planned) {
                    PodRef ref = new PodRef(w.namespace(), name);
                    if (!PodState.SUCCEEDED.equals(states.get(name).phase())) {
                        live.put(ref, pods.succeed(live.get(ref), now));
                    }
                }
                statuses.write(
                        w.kind(),
                        w.resource(),
                        a.shapes().orElseThrow().completedAt(now).orElseThrow());
                LOG.info("{} completed: its {} pods succeeded", w.describe(), planned.size());
            }
            case NONE -> {}
        }
    }

    /** The workload's run time: annotation {@code sim.cartograph.dev/run-seconds}, else the default. */
    private Duration runTime(Workload w) {
        return w.annotation(Lifecycle.RUN_SECONDS_ANNOTATION)
                .flatMap(text -> {
                    try {
                        long seconds = Long.parseLong(text.strip());
                        return seconds >= 0
                                ? java.util.Optional.of(Duration.ofSeconds(seconds))
                                : java.util.Optional.empty();
                    } catch (NumberFormatException e) {
                        LOG.warn(
                                "{}: annotation {} is not a number of seconds ('{}'), using {}",
                                w.describe(),
                                Lifecycle.RUN_SECONDS_ANNOTATION,
                                text,
                                batchRunTime);
                        return java.util.Optional.empty();
                    }
                })
                .orElse(batchRunTime);
    }
}
