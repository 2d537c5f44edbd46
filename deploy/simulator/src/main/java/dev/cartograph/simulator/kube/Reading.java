package dev.cartograph.simulator.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.PodRequests;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.simulator.schedule.NodeInfo;
import dev.cartograph.simulator.schedule.PendingPod;
import dev.cartograph.simulator.schedule.PodRef;
import dev.cartograph.simulator.status.PodState;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads fabric8 Nodes and Pods into the simulator's records. Stateless and thread-safe. */
final class Reading {
    private final KubernetesSerialization serialization;

    Reading(KubernetesSerialization serialization) {
        this.serialization = serialization;
    }

    JsonNode json(Object object) {
        return serialization.convertValue(object, JsonNode.class);
    }

    /**
     * A node as the scheduler sees it. A node whose Ready condition is not True is not ready; a node
     * without a Ready condition (mock nodes often have no status) counts as ready.
     */
    NodeInfo node(Node node) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        if (node.getStatus() != null && node.getStatus().getAllocatable() != null) {
            node.getStatus()
                    .getAllocatable()
                    .forEach((k, q) -> Quantity.parse(q.toString()).ifPresent(v -> amounts.put(k, v)));
        }
        List<Taint> taints = new ArrayList<>();
        boolean unschedulable = false;
        if (node.getSpec() != null) {
            unschedulable = Boolean.TRUE.equals(node.getSpec().getUnschedulable());
            node.getSpec()
                    .getTaints()
                    .forEach(t -> taints.add(new Taint(nz(t.getKey()), nz(t.getValue()), nz(t.getEffect()))));
        }
        Optional<NodeCondition> ready = node.getStatus() == null
                ? Optional.empty()
                : node.getStatus().getConditions().stream()
                        .filter(c -> "Ready".equals(c.getType()))
                        .findFirst();
        return new NodeInfo(
                node.getMetadata().getName(),
                node.getMetadata().getLabels() == null
                        ? Map.of()
                        : node.getMetadata().getLabels(),
                new ResourceList(amounts),
                taints,
                ready.map(c -> "True".equals(c.getStatus())).orElse(true),
                unschedulable);
    }

    /** The effective request of a pod, as the scheduler counts it (without the pod slot). */
    ResourceList requests(Pod pod) {
        return PodRequests.of(json(pod.getSpec())).request();
    }

    /** A pending pod: its requests, and its node selector, required node affinity and tolerations read as the planner reads them. */
    PendingPod pending(Pod pod) {
        JsonNode spec = json(pod.getSpec());
        return new PendingPod(ref(pod), PodRequests.of(spec).request(), NodeConstraints.of(spec));
    }

    static PodState state(Pod pod) {
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null
                ? "Pending"
                : pod.getStatus().getPhase();
        Optional<Instant> start =
                Optional.ofNullable(pod.getStatus()).map(s -> s.getStartTime()).flatMap(Reading::instant);
        return new PodState(pod.getMetadata().getName(), phase, bound(pod), start);
    }

    static boolean bound(Pod pod) {
        return pod.getSpec() != null
                && pod.getSpec().getNodeName() != null
                && !pod.getSpec().getNodeName().isEmpty();
    }

    static PodRef ref(Pod pod) {
        return new PodRef(
                nz(pod.getMetadata().getNamespace()), pod.getMetadata().getName());
    }

    /** The controller owner reference, if any. */
    static Optional<OwnerReference> controller(Pod pod) {
        return pod.getMetadata().getOwnerReferences().stream()
                .filter(o -> Boolean.TRUE.equals(o.getController()))
                .findFirst();
    }

    static Optional<Instant> instant(String text) {
        try {
            return text == null ? Optional.empty() : Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
