package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.protocol.MetadataKeys;
import java.util.Optional;

/**
 * What a Cartograph broker wrote on a hub object it federates: its phase label, the member it was
 * placed on and at which epoch, and why it waits. All absent on an object no broker touched.
 * Immutable.
 * The keys are the protocol's {@link MetadataKeys}.
 */
record HubMarks(Optional<String> phase, Optional<String> cluster, Optional<Long> epoch, Optional<String> reason) {
    /** Phases only a broker writes (the others are the interpreter's {@link Phase}s, mirrored from the member). */
    static final java.util.List<String> BROKER_PHASES = java.util.List.of("Queued", "Placed");

    static final HubMarks NONE = new HubMarks(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    static HubMarks of(JsonNode object) {
        JsonNode meta = object.path("metadata");
        Optional<Long> epoch =
                text(meta.path("annotations"), MetadataKeys.EPOCH_ANNOTATION).flatMap(HubMarks::number);
        return new HubMarks(
                text(meta.path("labels"), MetadataKeys.PHASE_LABEL),
                text(meta.path("labels"), MetadataKeys.CLUSTER_LABEL),
                epoch,
                text(meta.path("annotations"), MetadataKeys.REASON_ANNOTATION));
    }

    /** True when a broker has written its phase on the object (the object is federated). */
    boolean federated() {
        return phase.isPresent();
    }

    /**
     * The phase to show. An object the broker has not placed (Queued, or Failed before placement)
     * has no member, so the broker's phase is the truth even if an old member status is still
     * mirrored on it; a placed one shows what its mirrored status says, and the broker's phase
     * (e.g. Placed) until that says anything.
     */
    String shownPhase(Phase interpreted) {
        if (phase.isPresent() && (cluster.isEmpty() || interpreted == Phase.UNDEFINED)) {
            return phase.get();
        }
        return interpreted.displayName();
    }

    private static Optional<String> text(JsonNode map, String key) {
        return Optional.of(map.path(key).asText("")).filter(s -> !s.isBlank());
    }

    private static Optional<Long> number(String text) {
        try {
            return Optional.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
