package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.simulator.pods.PlannedPod;
import dev.cartograph.simulator.pods.PodManifests;
import dev.cartograph.simulator.pods.PodPlanner;
import dev.cartograph.simulator.pods.WorkloadPlan;
import dev.cartograph.simulator.schedule.PodRef;
import dev.cartograph.simulator.status.StatusLibrary;
import dev.cartograph.simulator.status.StatusShapes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One level-triggered pass over the whole member: list the selected workloads of every served
 * catalog kind, the pods and the nodes; create missing pods (delete those of a suspended workload);
 * delete pods whose workload is gone; start bound pods whose ConfigMaps, Secrets and claims now exist
 * ({@link KubeletPass}); schedule pending pods ({@link SchedulingPass}); advance each workload's lifecycle
 * ({@link LifecyclePass}). A bad object is logged once with its name and skipped. Not
 * thread-safe: one caller at a time (the simulator serializes passes).
 */
final class Reconciler {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

    private final KubernetesClient client;
    private final Interpreter interpreter;
    private final StatusLibrary statuses;
    private final String cluster;
    private final String selector;
    private final Clock clock;
    private final Reading reading;
    private final PodWriter pods;
    private final KubeletPass kubelet;
    private final SchedulingPass scheduling;
    private final LifecyclePass lifecycle;
    private final Set<String> warned = new HashSet<>();

    Reconciler(
            KubernetesClient client,
            Interpreter interpreter,
            StatusLibrary statuses,
            String cluster,
            String selector,
            Duration batchRunTime,
            Clock clock) {
        this.client = client;
        this.interpreter = interpreter;
        this.statuses = statuses;
        this.cluster = cluster;
        this.selector = selector;
        this.clock = clock;
        this.reading = new Reading(client.getKubernetesSerialization());
        this.pods = new PodWriter(client);
        this.kubelet = new KubeletPass(reading, pods);
        this.scheduling = new SchedulingPass(client, reading, pods, kubelet);
        this.lifecycle = new LifecyclePass(pods, new StatusWriter(client), batchRunTime);
    }

    /** A workload this pass understood: its view and plan, and whether its spec is suspended. */
    record Active(
            Workload workload,
            dev.cartograph.interpreter.view.WorkloadView view,
            WorkloadPlan plan,
            Optional<StatusShapes> shapes,
            boolean suspended) {}

    public void reconcileOnce() {
        Instant now = clock.instant();
        MDC.put("cluster", cluster);
        try {
            List<Workload> workloads = new ArrayList<>();
            Set<String> failedKinds = list(Discovery.servedKinds(client, interpreter.definitions()), workloads);
            Map<PodRef, Pod> live = new LinkedHashMap<>();
            client.pods().inAnyNamespace().list().getItems().forEach(p -> live.put(Reading.ref(p), p));
            List<Active> active = new ArrayList<>();
            for (Workload w : workloads) {
                withMdc(w, () -> prepare(w, live).ifPresent(active::add));
            }
            deleteOrphans(workloads, failedKinds, live);
            Presence presence = new Presence(client);
            kubelet.run(active, live, presence, now);
            scheduling.run(active, live, presence, now);
            for (Active a : active) {
                withMdc(a.workload(), () -> lifecycle.advance(a, live, now));
            }
        } finally {
            MDC.remove("cluster");
        }
    }

    /** Lists the selected workloads of every kind, oldest first; returns the kinds that could not be listed. */
    private Set<String> list(List<ServedKind> kinds, List<Workload> out) {
        Set<String> failed = new HashSet<>();
        for (ServedKind kind : kinds) {
            try {
                for (GenericKubernetesResource r : client.genericKubernetesResources(kind.context())
                        .inAnyNamespace()
                        .withLabelSelector(selector)
                        .list()
                        .getItems()) {
                    out.add(new Workload(kind, r, reading.json(r)));
                }
            } catch (KubernetesClientException e) {
                failed.add(kind.kind().apiVersion() + "/" + kind.kind().kind());
                LOG.warn("cannot list {} this pass (their pods are kept): {}", kind.kind(), e.getMessage());
            }
        }
        out.sort(Comparator.comparing(Workload::order));
        return failed;
    }

    private Optional<Active> prepare(Workload w, Map<PodRef, Pod> live) {
        Resolution resolution = interpreter.resolve(w.json());
        if (!(resolution instanceof Resolution.Resolved resolved)) {
            warnOnce(w, "skipped: cannot interpret it: " + resolution.problems());
            return Optional.empty();
        }
        if (resolved.view().identity().uid().isEmpty()) {
            warnOnce(w, "skipped: it has no metadata.uid to own its pods");
            return Optional.empty();
        }
        WorkloadPlan plan = PodPlanner.plan(resolved.view());
        Optional<StatusShapes> shapes = statuses.forDefinition(resolved.view().definition());
        // suspended as its definition's suspend actions say; a kind without them only by a status reading Suspended
        Optional<Boolean> bySpec = interpreter.suspended(w.json());
        Phase phase = resolved.view().phase();
        Active a = new Active(w, resolved.view(), plan, shapes, bySpec.orElse(false));
        if (phase == Phase.COMPLETED || phase == Phase.FAILED) {
            return Optional.of(a);
        }
        if (a.suspended()) {
            lifecycle.release(a, live); // before scheduling, so what its pods held is free this pass
        } else if (bySpec.isPresent() || phase != Phase.SUSPENDED) {
            plan.pods().forEach(p -> createIfMissing(a, p, live));
        }
        return Optional.of(a);
    }

    private void createIfMissing(Active a, PlannedPod p, Map<PodRef, Pod> live) {
        PodRef ref = new PodRef(a.workload().namespace(), p.name());
        if (live.containsKey(ref)) {
            return;
        }
        Map<String, String> labels = a.shapes()
                .map(s -> s.labelsFor(
                        a.workload().name(),
                        p.component(),
                        p.instance().id(),
                        p.index(),
                        p.gang().isPresent() ? Integer.toString(p.gang().getAsInt()) : ""))
                .orElse(Map.of());
        Pod pod = client.getKubernetesSerialization()
                .convertValue(PodManifests.build(a.view().identity(), p, labels), Pod.class);
        try {
            live.put(ref, pods.create(pod));
        } catch (KubernetesClientException e) {
            LOG.warn("cannot create pod {}: {}", ref, e.getMessage());
        }
    }

    /** Pods the simulator made whose workload is gone (or no longer selected): no garbage collector does it here. */
    private void deleteOrphans(List<Workload> workloads, Set<String> failedKinds, Map<PodRef, Pod> live) {
        Set<String> uids = new HashSet<>();
        workloads.forEach(w -> uids.add(w.uid()));
        for (Pod pod : List.copyOf(live.values())) {
            Map<String, String> labels = pod.getMetadata().getLabels();
            if (labels == null || !PodManifests.SIMULATOR.equals(labels.get(PodManifests.MANAGED_BY))) {
                continue;
            }
            Reading.controller(pod)
                    .filter(o -> !uids.contains(o.getUid()))
                    .filter(o -> !failedKinds.contains(o.getApiVersion() + "/" + o.getKind()))
                    .ifPresent(o -> {
                        try {
                            pods.delete(pod);
                            live.remove(Reading.ref(pod));
                            LOG.info(
                                    "deleted pod {} of {} {} (workload gone)",
                                    Reading.ref(pod),
                                    o.getKind(),
                                    o.getName());
                        } catch (KubernetesClientException e) {
                            LOG.warn("cannot delete pod {}: {}", Reading.ref(pod), e.getMessage());
                        }
                    });
        }
    }

    private void warnOnce(Workload w, String message) {
        if (warned.size() > 10_000) {
            warned.clear();
        }
        if (warned.add(w.uid() + "@" + w.resource().getMetadata().getResourceVersion() + message)) {
            LOG.warn("{} {}", w.describe(), message);
        }
    }

    private void withMdc(Workload w, Runnable body) {
        MDC.put("kind", w.kind().kind().kind());
        MDC.put("namespace", w.namespace());
        MDC.put("name", w.name());
        try {
            body.run();
        } catch (RuntimeException e) {
            warnOnce(w, "skipped this pass: " + e);
        } finally {
            MDC.remove("kind");
            MDC.remove("namespace");
            MDC.remove("name");
        }
    }
}
