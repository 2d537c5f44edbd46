package dev.cartograph.simulator.kube;

import dev.cartograph.simulator.kubelet.Kubelet;
import dev.cartograph.simulator.kubelet.Startup;
import dev.cartograph.simulator.schedule.PodRef;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelets of the member: whether a bound pod's containers start or wait for a ConfigMap, Secret or claim that
 * does not exist yet (the pure {@link Kubelet} decides; {@link Presence} answers what exists), and, each pass, starts
 * the waiting pods whose objects have appeared. Not thread-safe (one pass at a time).
 */
final class KubeletPass {
    private static final Logger LOG = LoggerFactory.getLogger(KubeletPass.class);

    private final Reading reading;
    private final PodWriter pods;

    KubeletPass(Reading reading, PodWriter pods) {
        this.reading = reading;
        this.pods = pods;
    }

    Startup startup(Pod pod, Presence presence) {
        String namespace = Reading.ref(pod).namespace();
        return Kubelet.startup(reading.json(pod.getSpec()), namespace, d -> presence.has(namespace, d));
    }

    /** Starts, or records why they still wait, the bound pods of the active workloads whose containers wait. */
    void run(List<Reconciler.Active> active, Map<PodRef, Pod> live, Presence presence, Instant now) {
        for (Reconciler.Active a : active) {
            if (a.suspended()) {
                continue;
            }
            for (var planned : a.plan().pods()) {
                PodRef ref = new PodRef(a.workload().namespace(), planned.name());
                Pod pod = live.get(ref);
                if (pod != null && waiting(pod) && ownedBy(pod, a.workload())) {
                    advance(ref, pod, presence, now, live);
                }
            }
        }
    }

    private void advance(PodRef ref, Pod pod, Presence presence, Instant now, Map<PodRef, Pod> live) {
        try {
            Startup startup = startup(pod, presence);
            if (startup instanceof Startup.Wait wait) {
                pods.waiting(pod, wait, now).ifPresent(p -> {
                    live.put(ref, p);
                    LOG.info("pod {} waits: {}: {}", ref, wait.reason(), wait.message());
                });
            } else {
                live.put(ref, pods.start(pod, now));
                LOG.info("pod {} started: what it needs is there now", ref);
            }
        } catch (KubernetesClientException e) {
            LOG.warn("cannot write the kubelet's status of pod {}: {}", ref, e.getMessage());
        }
    }

    /** Bound to a node, not finished, not running: its containers wait. */
    private static boolean waiting(Pod pod) {
        return Reading.bound(pod)
                && !Reading.state(pod).terminal()
                && !Reading.state(pod).running();
    }

    private static boolean ownedBy(Pod pod, Workload w) {
        return Reading.controller(pod).map(o -> w.uid().equals(o.getUid())).orElse(false);
    }
}
