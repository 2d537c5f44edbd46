package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.cartograph.interpreter.resources.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The interpreter's view of one workload in a member cluster, as its agent publishes it
 * (compacted topic, key = {@link WorkloadKey#kafkaKey()}, a tombstone when it is deleted), with the
 * placement id when the broker placed it and the object's raw status (the broker mirrors it onto the
 * hub object). Immutable.
 */
public record WorkloadSummary(
        WorkloadKey key,
        String apiVersion,
        String incarnation,
        long sequence,
        Instant observed,
        Optional<String> placementId,
        String phase,
        List<String> phases,
        long pods,
        ResourceList resources,
        long minMember,
        List<Role> roles,
        JsonNode status) {

    public WorkloadSummary {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(observed, "observed");
        placementId = placementId == null ? Optional.empty() : placementId;
        Objects.requireNonNull(phase, "phase");
        phases = List.copyOf(phases);
        Objects.requireNonNull(resources, "resources");
        roles = List.copyOf(roles);
        status = status == null || status.isMissingNode() || status.isNull()
                ? NullNode.getInstance()
                : status.deepCopy();
    }

    /** Phases of a workload its member has not started yet (nothing of it has run). */
    public static final java.util.Set<String> NOT_STARTED =
            java.util.Set.of("Undefined", "Initializing", "Pending", "");

    /**
     * Whether its member has started it (any phase past {@link #NOT_STARTED}). The broker re-places a
     * gang of a lost cluster only when its last summary said it had not started, and an agent cut off
     * from Kafka fences exactly those copies: both sides read this one rule.
     */
    public boolean started() {
        return !NOT_STARTED.contains(phase);
    }

    /** The member object's {@code .status} as the agent last saw it (null node when it has none); a copy. */
    @Override
    public JsonNode status() {
        return status.deepCopy();
    }

    /** Pods of one component instance: counts, and what each pod requests. */
    public record Role(
            String component, String instance, long desired, long min, Optional<Long> max, ResourceList perPod) {
        public Role {
            Objects.requireNonNull(component, "component");
            Objects.requireNonNull(instance, "instance");
            max = max == null ? Optional.empty() : max;
            Objects.requireNonNull(perPod, "perPod");
        }
    }
}
