package dev.cartograph.agent.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * How an agent marks what it created: a label with the placement id (so it can find the object
 * again after a restart), the managing agent, and an annotation with the fencing epoch. Objects
 * without these marks are never touched. Pure.
 */
public final class Ownership {
    public static final String PLACEMENT_LABEL = "cartograph.dev/placement-id";
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY = "cartograph-agent";
    public static final String EPOCH_ANNOTATION = "cartograph.dev/epoch";

    private Ownership() {
    }

    /** The manifest with this agent's marks added (a copy; the input is not changed). */
    public static JsonNode mark(JsonNode manifest, String placementId, long epoch) {
        ObjectNode copy = (ObjectNode) manifest.deepCopy();
        ObjectNode meta = copy.with("metadata");
        meta.with("labels").put(PLACEMENT_LABEL, placementId).put(MANAGED_BY_LABEL, MANAGED_BY);
        meta.with("annotations").put(EPOCH_ANNOTATION, Long.toString(epoch));
        for (String serverSet : new String[] {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
                "ownerReferences", "finalizers", "deletionTimestamp"}) {
            meta.remove(serverSet);
        }
        copy.remove("status");
        return copy;
    }

    /** True when the object was created by an agent for {@code placementId}. */
    public static boolean ownedBy(JsonNode object, String placementId) {
        JsonNode labels = object.path("metadata").path("labels");
        return MANAGED_BY.equals(labels.path(MANAGED_BY_LABEL).asText()) && placementId.equals(labels.path(PLACEMENT_LABEL).asText());
    }

    /** The epoch the object was applied at, when the agent marked it. */
    public static Optional<Long> epoch(JsonNode object) {
        String text = object.path("metadata").path("annotations").path(EPOCH_ANNOTATION).asText("");
        try {
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public static Optional<String> placementId(JsonNode object) {
        String id = object.path("metadata").path("labels").path(PLACEMENT_LABEL).asText("");
        return id.isEmpty() ? Optional.empty() : Optional.of(id);
    }
}
