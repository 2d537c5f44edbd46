package dev.cartograph.local.fault;

import dev.cartograph.local.fault.history.Sample;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples the member clusters' own API servers every {@code interval} for the whole run — each member's placed copies
 * (with their own uids, and whether some pod of theirs runs) and each node's GPUs, allocatable and asked for by bound,
 * unfinished pods of every namespace — into the history the {@link dev.cartograph.local.fault.history.Checker} reads.
 * A member that does not answer in a round is left out of that sample (a mock server busy for a moment). Thread-safe;
 * its own daemon thread.
 */
final class Recorder implements AutoCloseable {
    static final String GPU = "nvidia.com/gpu";

    private final Clusters clusters;
    private final Duration interval;
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong unanswered = new AtomicLong();
    private final Thread thread;
    private volatile boolean stop;

    Recorder(Clusters clusters, Duration interval) {
        this.clusters = clusters;
        this.interval = interval;
        this.thread = new Thread(this::run, "history-recorder");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        while (!stop) {
            Map<String, Sample.Member> read = new HashMap<>();
            for (String cluster : clusters.names()) {
                try {
                    read.put(cluster, member(clusters.member(cluster)));
                } catch (RuntimeException e) {
                    unanswered.incrementAndGet();
                }
            }
            samples.add(new Sample(System.currentTimeMillis(), read));
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static Sample.Member member(KubernetesClient member) {
        Map<String, String> placementOfCopy = new HashMap<>(); // copy uid → placement id
        Map<String, String> uidOfPlacement = new HashMap<>();
        for (Gang.Kind kind : Gang.Kind.values()) {
            for (GenericKubernetesResource o : member.genericKubernetesResources(kind.context)
                    .inNamespace(Clusters.NAMESPACE)
                    .list()
                    .getItems()) {
                Map<String, String> labels = o.getMetadata().getLabels();
                String placement = labels == null ? null : labels.get(MemberStores.PLACEMENT_LABEL);
                if (placement != null) {
                    placementOfCopy.put(o.getMetadata().getUid(), placement);
                    uidOfPlacement.put(placement, o.getMetadata().getUid());
                }
            }
        }
        Map<String, Long> used = new HashMap<>();
        java.util.Set<String> running = new java.util.HashSet<>();
        for (Pod pod : member.pods().inAnyNamespace().list().getItems()) {
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            String phase = pod.getStatus() == null
                    ? ""
                    : String.valueOf(pod.getStatus().getPhase());
            if (node == null || node.isEmpty() || "Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            used.merge(node, gpus(pod), Long::sum);
            if (pod.getMetadata().getDeletionTimestamp() == null) {
                for (OwnerReference owner : pod.getMetadata().getOwnerReferences()) {
                    String placement = placementOfCopy.get(owner.getUid());
                    if (placement != null) {
                        running.add(placement);
                    }
                }
            }
        }
        Map<String, Sample.Copy> copies = new HashMap<>();
        uidOfPlacement.forEach((placement, uid) ->
                copies.put(placement, new Sample.Copy(placement, uid, running.contains(placement))));
        Map<String, Sample.Node> nodes = new HashMap<>();
        for (Node n : member.nodes().list().getItems()) {
            Quantity q = n.getStatus() == null || n.getStatus().getAllocatable() == null
                    ? null
                    : n.getStatus().getAllocatable().get(GPU);
            String name = n.getMetadata().getName();
            nodes.put(
                    name,
                    new Sample.Node(q == null ? 0 : q.getNumericalAmount().longValue(), used.getOrDefault(name, 0L)));
        }
        return new Sample.Member(copies, nodes);
    }

    /** The GPUs a pod asks for: its containers' requests (else limits) of {@code nvidia.com/gpu}, summed. */
    private static long gpus(Pod pod) {
        long sum = 0;
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getResources() == null) {
                continue;
            }
            Quantity q = c.getResources().getRequests() == null
                    ? null
                    : c.getResources().getRequests().get(GPU);
            if (q == null && c.getResources().getLimits() != null) {
                q = c.getResources().getLimits().get(GPU);
            }
            sum += q == null ? 0 : q.getNumericalAmount().longValue();
        }
        return sum;
    }

    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    long unanswered() {
        return unanswered.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join(5_000);
    }
}
