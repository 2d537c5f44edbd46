package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.simulator.schedule.NodeInfo;
import dev.cartograph.simulator.schedule.PendingPod;
import dev.cartograph.simulator.schedule.PodRef;
import dev.cartograph.simulator.schedule.Request;
import dev.cartograph.simulator.schedule.ScheduleResult;
import dev.cartograph.simulator.schedule.Scheduler;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads nodes and the capacity bound pods hold, asks the pure {@link Scheduler} where the pending
 * pods of the active workloads go, and writes its decisions. Not thread-safe (one pass at a time).
 */
final class SchedulingPass {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulingPass.class);

    private final KubernetesClient client;
    private final Reading reading;
    private final PodWriter pods;
    private final KubeletPass kubelet;

    SchedulingPass(KubernetesClient client, Reading reading, PodWriter pods, KubeletPass kubelet) {
        this.client = client;
        this.reading = reading;
        this.pods = pods;
        this.kubelet = kubelet;
    }

    /** Binds what fits; each bound pod's kubelet starts it at once or keeps it waiting ({@link KubeletPass}). */
    void run(List<Reconciler.Active> active, Map<PodRef, Pod> live, Presence presence, Instant now) {
        List<Request> requests = new ArrayList<>();
        active.forEach(a -> request(a, live).ifPresent(requests::add));
        if (requests.isEmpty()) {
            return;
        }
        for (ScheduleResult d : Scheduler.schedule(nodes(), used(live), requests)) {
            Pod pod = live.get(d.pod());
            try {
                if (d instanceof ScheduleResult.Bind b) {
                    live.put(d.pod(), pods.bind(pod, b.node(), now, kubelet.startup(pod, presence)));
                    LOG.info("bound pod {} to node {}", d.pod(), b.node());
                } else if (d instanceof ScheduleResult.Unschedulable u) {
                    pods.pending(pod, u.message(), now).ifPresent(p -> {
                        live.put(d.pod(), p);
                        LOG.info("pod {} is unschedulable: {}", d.pod(), u.message());
                    });
                }
            } catch (KubernetesClientException e) {
                LOG.warn("cannot write scheduling decision for pod {}: {}", d.pod(), e.getMessage());
            }
        }
    }

    /** The workload's pending pods as gangs and loose pods; none while any planned gang member is missing. */
    private Optional<Request> request(Reconciler.Active a, Map<PodRef, Pod> live) {
        String ns = a.workload().namespace();
        String uid = a.workload().uid();
        Map<String, Pod> owned = new HashMap<>();
        a.plan()
                .pods()
                .forEach(p -> Optional.ofNullable(live.get(new PodRef(ns, p.name())))
                        .filter(pod -> Reading.controller(pod)
                                .map(o -> uid.equals(o.getUid()))
                                .orElse(false))
                        .ifPresent(pod -> owned.put(p.name(), pod)));
        List<List<PendingPod>> gangs = new ArrayList<>();
        for (List<String> gang : a.plan().gangs()) {
            if (!owned.keySet().containsAll(gang)) {
                return Optional.empty();
            }
            List<PendingPod> pending = gang.stream()
                    .map(owned::get)
                    .filter(SchedulingPass::pending)
                    .map(reading::pending)
                    .toList();
            if (!pending.isEmpty()) {
                gangs.add(pending);
            }
        }
        List<PendingPod> loose = a.plan().pods().stream()
                .filter(p -> !a.plan().inAnyGang(p.name()))
                .map(p -> owned.get(p.name()))
                .filter(p -> p != null && pending(p))
                .map(reading::pending)
                .toList();
        return gangs.isEmpty() && loose.isEmpty()
                ? Optional.empty()
                : Optional.of(new Request(a.workload().describe(), gangs, loose));
    }

    private static boolean pending(Pod pod) {
        return !Reading.bound(pod) && !Reading.state(pod).terminal();
    }

    private List<NodeInfo> nodes() {
        List<NodeInfo> out = new ArrayList<>();
        for (Node node : client.nodes().list().getItems()) {
            try {
                out.add(reading.node(node));
            } catch (RuntimeException e) {
                LOG.warn(
                        "skipped node {}: cannot read it: {}",
                        node.getMetadata().getName(),
                        e.toString());
            }
        }
        return out;
    }

    /** Per node, what its non-terminal bound pods request, with one pod slot each. */
    private Map<String, ResourceList> used(Map<PodRef, Pod> live) {
        Map<String, ResourceList> used = new HashMap<>();
        ResourceList slot = new ResourceList(Map.of(ResourceList.PODS, java.math.BigDecimal.ONE));
        for (Pod pod : live.values()) {
            if (Reading.bound(pod) && !Reading.state(pod).terminal()) {
                try {
                    used.merge(
                            pod.getSpec().getNodeName(), reading.requests(pod).plus(slot), ResourceList::plus);
                } catch (RuntimeException e) {
                    LOG.warn("pod {}: cannot read its requests, counted as none: {}", Reading.ref(pod), e.toString());
                }
            }
        }
        return used;
    }
}
