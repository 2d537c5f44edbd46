package dev.cartograph.agent.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.protocol.MemberManifest;
import dev.cartograph.protocol.MetadataKeys;
import java.util.Optional;

/**
 * How an agent marks what it created: a label with the placement id, the managing agent, and an
 * annotation with the fencing epoch (and, once Kafka has a summary saying the copy started, an annotation saying
 * so at that epoch: {@link #startedReported}). An object is a copy only with all three marks and no controller
 * owner (a Pod or ReplicaSet whose template copied the labels is owned by its controller, so it is
 * never taken for a copy); objects without them are never touched. Copies are found by their kind,
 * namespace and name, never by a label search. Pure.
 */
public final class Ownership {
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY = "cartograph-agent";

    private Ownership() {}

    /**
     * The member copy of a manifest the broker sent ({@link MemberManifest}, applied again in case the sender did
     * not: a Job with another server's generated selector would be refused) with this agent's marks added. A copy;
     * the input is not changed.
     */
    public static JsonNode mark(JsonNode manifest, String placementId, long epoch) {
        ObjectNode copy = MemberManifest.of(manifest, MemberManifest.FORWARDED);
        ObjectNode meta = copy.with("metadata");
        meta.with("labels").put(MetadataKeys.PLACEMENT_ID_LABEL, placementId).put(MANAGED_BY_LABEL, MANAGED_BY);
        meta.with("annotations").put(MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch));
        return copy;
    }

    /** How an object found under a marked manifest's name stands to that manifest. */
    public enum Found {
        /** created for the same placement at the same epoch: what the manifest asks for is there */
        SAME_EPOCH,
        /** created for the same placement at an older epoch: to be updated */
        OLDER_EPOCH,
        /** created for the same placement at a newer epoch: the manifest is stale */
        NEWER_EPOCH,
        /** not created by an agent for this placement: never touched */
        NOT_OURS
    }

    /** Compares an object found on the cluster with a manifest this agent marked ({@link #mark}). */
    public static Found compare(JsonNode found, JsonNode marked) {
        Optional<String> id = placementId(marked);
        if (id.isEmpty() || !ownedBy(found, id.get())) {
            return Found.NOT_OURS;
        }
        long want = epoch(marked).orElse(0L);
        long have = epoch(found).orElse(0L);
        return have == want ? Found.SAME_EPOCH : have < want ? Found.OLDER_EPOCH : Found.NEWER_EPOCH;
    }

    /** True when the object is a copy an agent created for {@code placementId} ({@link #placementId}). */
    public static boolean ownedBy(JsonNode object, String placementId) {
        return placementId(object).filter(placementId::equals).isPresent();
    }

    /** The epoch the object was applied at, when the agent marked it. */
    public static Optional<Long> epoch(JsonNode object) {
        return number(object, MetadataKeys.EPOCH_ANNOTATION);
    }

    /**
     * The epoch of the copy at which Kafka acknowledged a summary saying it had started, when an agent wrote it
     * ({@link MetadataKeys#STARTED_REPORTED_ANNOTATION}); it counts only while it is the copy's {@link #epoch}.
     */
    public static Optional<Long> startedReported(JsonNode object) {
        return number(object, MetadataKeys.STARTED_REPORTED_ANNOTATION);
    }

    private static Optional<Long> number(JsonNode object, String annotation) {
        String text =
                object.path("metadata").path("annotations").path(annotation).asText("");
        try {
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The placement an object is a copy of: present only when it carries every mark ({@link #mark}: managed by an
     * agent, a placement id, an epoch) and no controller owns it.
     */
    public static Optional<String> placementId(JsonNode object) {
        JsonNode meta = object.path("metadata");
        String id = meta.path("labels").path(MetadataKeys.PLACEMENT_ID_LABEL).asText("");
        boolean marked = !id.isEmpty()
                && MANAGED_BY.equals(meta.path("labels").path(MANAGED_BY_LABEL).asText())
                && epoch(object).isPresent();
        return marked && !controlled(meta) ? Optional.of(id) : Optional.empty();
    }

    private static boolean controlled(JsonNode meta) {
        for (JsonNode ref : meta.path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return true;
            }
        }
        return false;
    }
}
