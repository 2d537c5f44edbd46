package dev.cartograph.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Submit-to-applied and submit-to-running latency on the local fleet (default profile): single-GPU
 * PyTorchJobs created on the hub one every {@value #GAP_MS} ms; "applied" is when the copy appears
 * in its member cluster (seen by an informer there), "running" when the hub object's phase label
 * says Running (the member simulator ran its pods and the broker mirrored the status). Not a unit
 * test (run by name; see docs/benchmarks.md).
 */
class SubmitLatencyBenchmark {
    static final int JOBS = 60;
    static final int GAP_MS = 200;

    @Test
    void submitToAppliedAndRunning() throws Exception {
        Path dir = Files.createTempDirectory("latency");
        try (LocalFleet fleet =
                LocalFleet.start(FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofHours(1)))) {
            dev.cartograph.interpreter.testing.Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3);
            Map<String, Long> applied = new ConcurrentHashMap<>();
            List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
            for (String c : fleet.clusters()) {
                informers.add(fleet.member(c)
                        .client()
                        .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                        .inAnyNamespace()
                        .inform(
                                new ResourceEventHandler<>() {
                                    @Override
                                    public void onAdd(GenericKubernetesResource o) {
                                        applied.putIfAbsent(
                                                o.getMetadata().getLabels().get("cartograph.dev/placement-id"),
                                                System.nanoTime());
                                    }

                                    @Override
                                    public void onUpdate(GenericKubernetesResource a, GenericKubernetesResource b) {}

                                    @Override
                                    public void onDelete(GenericKubernetesResource o, boolean unknown) {}
                                },
                                0));
            }
            Map<String, Long> running = new ConcurrentHashMap<>();
            SharedIndexInformer<GenericKubernetesResource> hubInformer = fleet.hub()
                    .client()
                    .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                    .inAnyNamespace()
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(GenericKubernetesResource o) {}

                                @Override
                                public void onUpdate(GenericKubernetesResource a, GenericKubernetesResource o) {
                                    if (o.getMetadata().getLabels() != null
                                            && "Running"
                                                    .equals(o.getMetadata()
                                                            .getLabels()
                                                            .get("cartograph.dev/phase"))) {
                                        running.putIfAbsent(o.getMetadata().getUid(), System.nanoTime());
                                    }
                                }

                                @Override
                                public void onDelete(GenericKubernetesResource o, boolean unknown) {}
                            },
                            0);
            Map<String, Long> submitted = new ConcurrentHashMap<>();
            for (int i = 0; i < JOBS; i++) {
                long t = System.nanoTime();
                GenericKubernetesResource created = fleet.hub()
                        .client()
                        .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                        .inNamespace("ml")
                        .resource(LocalFleetIT.pytorchJob("lat-" + i, 1))
                        .create();
                submitted.put(created.getMetadata().getUid(), t);
                Thread.sleep(GAP_MS);
            }
            dev.cartograph.interpreter.testing.Eventually.until(
                    Duration.ofSeconds(120), () -> running.keySet().containsAll(submitted.keySet()));
            informers.forEach(SharedIndexInformer::close);
            hubInformer.close();
            System.out.printf("%d single-GPU PyTorchJobs, one every %d ms, on the default local fleet%n", JOBS, GAP_MS);
            System.out.println("submit -> applied on the member: " + stats(submitted, applied));
            System.out.println("submit -> Running on the hub:    " + stats(submitted, running));
        }
    }

    static String stats(Map<String, Long> from, Map<String, Long> to) {
        List<Double> ms = new ArrayList<>();
        from.forEach((uid, t) -> ms.add((to.get(uid) - t) / 1e6));
        Collections.sort(ms);
        return String.format(
                "p50 %.0f ms, p99 %.0f ms, max %.0f ms (n=%d)",
                ms.get(ms.size() / 2), ms.get((int) Math.ceil(ms.size() * 0.99) - 1), ms.get(ms.size() - 1), ms.size());
    }
}
