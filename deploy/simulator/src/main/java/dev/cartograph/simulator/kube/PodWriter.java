package dev.cartograph.simulator.kube;

import dev.cartograph.simulator.kubelet.Startup;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Writes pods as the kubelet and scheduler would: bind (node name and the kubelet's first status, Running or
 * waiting, in one update, which the CRUD mock stores; a real API server would need the binding subresource), start,
 * waiting, pending with a reason, succeeded, deleted. Each method returns the pod as stored. Thread-safe
 * as the client is.
 */
final class PodWriter {
    private final KubernetesClient client;

    PodWriter(KubernetesClient client) {
        this.client = client;
    }

    Pod create(Pod pod) {
        return client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .create();
    }

    /**
     * Binds the pod to {@code node} and, as its kubelet would at once, starts its containers ({@link Startup.Start}:
     * Running and ready) or keeps them waiting ({@link Startup.Wait}: Pending, scheduled, containers waiting).
     */
    Pod bind(Pod pod, String node, Instant now, Startup startup) {
        Pod bound = new PodBuilder(pod).editSpec().withNodeName(node).endSpec().build();
        bound.setStatus(startup instanceof Startup.Wait wait ? waitingStatus(pod, wait, now) : runningStatus(pod, now));
        return client.pods().resource(bound).update();
    }

    /** Starts the containers of a bound pod that was waiting. */
    Pod start(Pod pod, Instant now) {
        Pod copy = new PodBuilder(pod).build();
        copy.setStatus(runningStatus(pod, now));
        return client.pods().resource(copy).updateStatus();
    }

    /** Records why a bound pod's containers wait; writes only when the reason or message changed. */
    Optional<Pod> waiting(Pod pod, Startup.Wait wait, Instant now) {
        boolean same = pod.getStatus() != null
                && !pod.getStatus().getContainerStatuses().isEmpty()
                && pod.getStatus().getContainerStatuses().stream()
                        .allMatch(c -> c.getState() != null
                                && c.getState().getWaiting() != null
                                && wait.reason()
                                        .equals(c.getState().getWaiting().getReason())
                                && wait.message()
                                        .equals(c.getState().getWaiting().getMessage()));
        if (same) {
            return Optional.empty();
        }
        Pod copy = new PodBuilder(pod).build();
        copy.setStatus(waitingStatus(pod, wait, now));
        return Optional.of(client.pods().resource(copy).updateStatus());
    }

    private static PodStatus runningStatus(Pod pod, Instant now) {
        String at = stamp(now);
        List<ContainerStatus> containers = pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withImage(c.getImage())
                        .withReady(true)
                        .withStarted(true)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewRunning()
                        .withStartedAt(at)
                        .endRunning()
                        .endState()
                        .build())
                .toList();
        return new PodStatusBuilder()
                .withPhase("Running")
                .withStartTime(at)
                .withConditions(
                        condition("PodScheduled", "True", null, null, at),
                        condition("Initialized", "True", null, null, at),
                        condition("ContainersReady", "True", null, null, at),
                        condition("Ready", "True", null, null, at))
                .withContainerStatuses(containers)
                .build();
    }

    /**
     * Pending on its node, every container waiting with the kubelet's reason (a simplification: the kubelet would
     * start the containers that need nothing missing). No start time until the containers run (the run time of a
     * batch workload counts from there).
     */
    private static PodStatus waitingStatus(Pod pod, Startup.Wait wait, Instant now) {
        String at = stamp(now);
        List<String> names =
                pod.getSpec().getContainers().stream().map(c -> c.getName()).toList();
        List<ContainerStatus> containers = pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withImage(c.getImage())
                        .withReady(false)
                        .withStarted(false)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewWaiting()
                        .withReason(wait.reason())
                        .withMessage(wait.message())
                        .endWaiting()
                        .endState()
                        .build())
                .toList();
        String unready = "containers with unready status: [" + String.join(" ", names) + "]";
        return new PodStatusBuilder()
                .withPhase("Pending")
                .withConditions(
                        condition("PodScheduled", "True", null, null, at),
                        condition("Initialized", "True", null, null, at),
                        condition("ContainersReady", "False", "ContainersNotReady", unready, at),
                        condition("Ready", "False", "ContainersNotReady", unready, at))
                .withContainerStatuses(containers)
                .build();
    }

    /** Records why the pod stays pending; writes only when the message changed. */
    Optional<Pod> pending(Pod pod, String message, Instant now) {
        boolean same = pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType())
                                && "False".equals(c.getStatus())
                                && message.equals(c.getMessage()));
        if (same) {
            return Optional.empty();
        }
        Pod copy = new PodBuilder(pod).build();
        copy.setStatus(new PodStatusBuilder()
                .withPhase("Pending")
                .withConditions(condition("PodScheduled", "False", "Unschedulable", message, stamp(now)))
                .build());
        return Optional.of(client.pods().resource(copy).updateStatus());
    }

    Pod succeed(Pod pod, Instant now) {
        String at = stamp(now);
        PodStatus old = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        List<ContainerStatus> containers = pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withImage(c.getImage())
                        .withReady(false)
                        .withStarted(false)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .withReason("Completed")
                        .withFinishedAt(at)
                        .endTerminated()
                        .endState()
                        .build())
                .toList();
        Pod copy = new PodBuilder(pod).build();
        copy.setStatus(new PodStatusBuilder()
                .withPhase("Succeeded")
                .withStartTime(old.getStartTime())
                .withConditions(
                        condition("PodScheduled", "True", null, null, at),
                        condition("Ready", "False", "PodCompleted", null, at),
                        condition("ContainersReady", "False", "PodCompleted", null, at))
                .withContainerStatuses(containers)
                .build());
        return client.pods().resource(copy).updateStatus();
    }

    void delete(Pod pod) {
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .delete();
    }

    private static PodCondition condition(String type, String status, String reason, String message, String at) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(at)
                .build();
    }

    private static String stamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
