package dev.cartograph.local.fault;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Submits a plan's gangs to the hub and deletes the planned ones, each at its moment, on the calling thread, as a
 * user with kubectl would. Not thread-safe; used once.
 */
final class Workload {
    private final KubernetesClient hub;
    private final Plan plan;
    private final long t0;
    private final Timeline timeline;
    private final Map<String, Long> deletedAt = new java.util.concurrent.ConcurrentHashMap<>();

    Workload(KubernetesClient hub, Plan plan, long t0, Timeline timeline) {
        this.hub = hub;
        this.plan = plan;
        this.t0 = t0;
        this.timeline = timeline;
    }

    /** Returns every gang created, with its hub uid and whether it was deleted again. */
    List<Verdict.Submitted> run() throws InterruptedException {
        Map<String, GenericKubernetesResource> created = new HashMap<>();
        Map<String, Gang> gangs = new HashMap<>();
        Set<String> deleted = new TreeSet<>();
        int s = 0;
        int d = 0;
        while (s < plan.submissions().size() || d < plan.deletions().size()) {
            boolean submitNext = d >= plan.deletions().size()
                    || s < plan.submissions().size()
                            && plan.submissions().get(s).atMillis()
                                    <= plan.deletions().get(d).atMillis();
            if (submitNext) {
                Plan.Submission next = plan.submissions().get(s++);
                sleepUntil(next.atMillis());
                Gang g = next.gang();
                gangs.put(g.name(), g);
                GenericKubernetesResource object = asUser(() -> hub.genericKubernetesResources(g.kind().context)
                        .inNamespace(Clusters.NAMESPACE)
                        .resource(g.manifest())
                        .create());
                created.put(g.name(), object);
                timeline.add("submitted " + g + " uid " + object.getMetadata().getUid());
            } else {
                Plan.Deletion next = plan.deletions().get(d++);
                sleepUntil(next.atMillis());
                Gang g = gangs.get(next.gang());
                deletedAt.put(created.get(g.name()).getMetadata().getUid(), System.currentTimeMillis());
                asUser(() -> hub.genericKubernetesResources(g.kind().context)
                        .inNamespace(Clusters.NAMESPACE)
                        .withName(g.name())
                        .delete());
                deleted.add(g.name());
                timeline.add("deleted " + g.name() + " uid "
                        + created.get(g.name()).getMetadata().getUid());
            }
        }
        List<Verdict.Submitted> out = new ArrayList<>();
        created.forEach((name, object) -> out.add(
                new Verdict.Submitted(gangs.get(name), object.getMetadata().getUid(), deleted.contains(name))));
        out.sort(java.util.Comparator.comparing(x -> x.gang().name()));
        return out;
    }

    /**
     * A user's call to the hub, tried again as kubectl's client does while the hub throttles or fails (429, 5xx; the
     * suite's {@code HUB_API} fault): up to 20 times, a second apart. The mock answers those faults before it serves
     * the request, so a call that failed did nothing.
     */
    private <T> T asUser(java.util.function.Supplier<T> call) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (attempt >= 20 || !(e.getCode() == 429 || e.getCode() >= 500)) {
                    throw e;
                }
                Thread.sleep(1_000);
            }
        }
    }

    /** Placement id (hub uid) → when the user asked the hub to delete it (wall-clock ms), for the history. */
    Map<String, Long> deletedAt() {
        return Map.copyOf(deletedAt);
    }

    private void sleepUntil(long atMillis) throws InterruptedException {
        long wait = atMillis - (System.nanoTime() - t0) / 1_000_000;
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }
}
