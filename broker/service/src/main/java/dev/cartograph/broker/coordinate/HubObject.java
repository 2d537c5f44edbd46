package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.placement.Demands;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One federated hub object as the coordinator reads it, parsed once per change: identity, whether
 * it is being deleted, its generation, queue priority and submission time, the cluster selector it
 * asks for, and what the broker's own marks on it show. Immutable (the raw object is not copied and
 * must not be changed).
 *
 * @param priority        the {@code cartograph.dev/priority} annotation; else the highest value of the
 *                        PriorityClasses its pod templates name ({@code priorityClassName} anywhere in
 *                        the spec, shape-blind); else the hub's global default; else 0
 * @param priorityProblem why the annotation was not used, when it was set but is not a whole number
 * @param shownPhase      what the broker's phase label on it says now
 * @param shownCluster    what the broker's cluster label on it says now
 * @param shownEpoch      the placement epoch the broker's epoch annotation on it says, when it says one: a floor for
 *                        any epoch the broker uses for it again, should its placement record be lost
 */
public record HubObject(
        String uid,
        JsonNode raw,
        PlacementRecord.Target target,
        boolean deleting,
        long generation,
        int priority,
        Optional<String> priorityProblem,
        Instant submitted,
        String clusterSelectorText,
        Map<String, String> clusterSelector,
        boolean finalized,
        String shownPhase,
        String shownCluster,
        Optional<Long> shownEpoch) {

    public HubObject {
        clusterSelector = Map.copyOf(clusterSelector);
    }

    /** Reads a hub object; empty when it has no uid (nothing the broker can key a placement by). */
    public static Optional<HubObject> parse(JsonNode object, PriorityClasses classes, Instant now) {
        JsonNode meta = object.path("metadata");
        String uid = meta.path("uid").asText("");
        if (uid.isEmpty()) {
            return Optional.empty();
        }
        String annotation =
                meta.path("annotations").path(MetadataKeys.PRIORITY_ANNOTATION).asText("");
        Optional<Integer> annotated = Optional.empty();
        Optional<String> problem = Optional.empty();
        if (!annotation.isEmpty()) {
            try {
                annotated = Optional.of(Integer.parseInt(annotation.strip()));
            } catch (NumberFormatException e) {
                problem = Optional.of("annotation " + MetadataKeys.PRIORITY_ANNOTATION + "='" + annotation
                        + "' is not a whole number; its priority class is used");
            }
        }
        int priority = annotated.orElseGet(() -> classPriority(object, classes));
        boolean finalized = false;
        for (JsonNode f : meta.path("finalizers")) {
            finalized |= MetadataKeys.FINALIZER.equals(f.asText());
        }
        return Optional.of(new HubObject(
                uid,
                object,
                target(object),
                !meta.path("deletionTimestamp").asText("").isEmpty(),
                meta.path("generation").asLong(0),
                priority,
                problem,
                submitted(meta, now),
                meta.path("annotations")
                        .path(MetadataKeys.CLUSTER_SELECTOR_ANNOTATION)
                        .asText(""),
                Demands.clusterSelector(object),
                finalized,
                meta.path("labels").path(MetadataKeys.PHASE_LABEL).asText(""),
                meta.path("labels").path(MetadataKeys.CLUSTER_LABEL).asText(""),
                epoch(meta.path("annotations")
                        .path(MetadataKeys.EPOCH_ANNOTATION)
                        .asText(""))));
    }

    private static Optional<Long> epoch(String text) {
        try {
            long epoch = Long.parseLong(text.strip());
            return epoch > 0 ? Optional.of(epoch) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty(); // absent, or not the broker's: no floor
        }
    }

    private static int classPriority(JsonNode object, PriorityClasses classes) {
        List<String> names = new ArrayList<>();
        object.path("spec").findValues("priorityClassName").forEach(v -> names.add(v.asText()));
        return names.stream()
                .map(classes::value)
                .flatMap(Optional::stream)
                .max(Integer::compare)
                .orElse(classes.globalDefault().orElse(0));
    }

    private static Instant submitted(JsonNode meta, Instant fallback) {
        try {
            return Instant.parse(meta.path("creationTimestamp").asText(""));
        } catch (DateTimeParseException e) {
            return fallback;
        }
    }

    static PlacementRecord.Target target(JsonNode object) {
        JsonNode m = object.path("metadata");
        return new PlacementRecord.Target(
                m.path("namespace").asText(""),
                object.path("apiVersion").asText(""),
                object.path("kind").asText(""),
                m.path("name").asText(""));
    }

    /** The object's spec, as the demand it asks for is computed from. */
    public JsonNode spec() {
        return raw.path("spec");
    }

    public JsonNode status() {
        return raw.path("status");
    }
}
