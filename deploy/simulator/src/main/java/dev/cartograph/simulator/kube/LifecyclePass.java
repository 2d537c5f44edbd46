package dev.cartograph.simulator.kube;

import dev.cartograph.simulator.schedule.PodRef;
import dev.cartograph.simulator.status.Lifecycle;
import dev.cartograph.simulator.status.PodState;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
 * status; deletes the pods of a workload whose spec is suspended and writes its suspended status, and
 * the resumed status once its spec is resumed. Not thread-safe (one pass at a time).
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

    /**
     * Deletes the workload's pods that have not finished, as its controller does when its spec is suspended (the
     * Job controller, the training operator, JobSet through its Jobs, KubeRay through the RayCluster).
     */
    void release(Reconciler.Active a, Map<PodRef, Pod> live) {
        Workload w = a.workload();
        int deleted = 0;
        for (var planned : a.plan().pods()) {
            PodRef ref = new PodRef(w.namespace(), planned.name());
            Pod pod = live.get(ref);
            if (pod == null
                    || Reading.state(pod).terminal()
                    || !Reading.controller(pod)
                            .map(o -> w.uid().equals(o.getUid()))
                            .orElse(false)) {
                continue;
            }
            try {
                pods.delete(pod);
                live.remove(ref);
                deleted++;
            } catch (KubernetesClientException e) {
                LOG.warn("cannot delete pod {} of suspended {}: {}", ref, w.describe(), e.getMessage());
            }
        }
        if (deleted > 0) {
            LOG.info("{} is suspended: deleted its {} unfinished pods", w.describe(), deleted);
        }
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
        switch (Lifecycle.decide(planned, states, a.suspended(), a.view().phase(), a.shapes(), runTime(w), now)) {
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
            case WRITE_SUSPENDED -> {
                statuses.write(
                        w.kind(),
                        w.resource(),
                        a.shapes().orElseThrow().suspendedAt(now).orElseThrow());
                LOG.info("{} is suspended", w.describe());
            }
            case WRITE_RESUMED -> {
                statuses.write(
                        w.kind(),
                        w.resource(),
                        a.shapes().orElseThrow().resumedAt(now).orElseThrow());
                LOG.info("{} is resumed", w.describe());
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
