package dev.cartograph.protocol;

import java.time.Instant;
import java.util.Objects;

/** What came of a command, as the agent reports it on the event stream (key = placement id). Immutable. */
public record CommandResult(String cluster, String placementId, long epoch, String command, Outcome outcome, String reason,
                            Instant at) {

    /** The fixed vocabulary of outcomes. */
    public enum Outcome {
        /** created or updated */
        APPLIED,
        /** deleted, or there was nothing to delete */
        DELETED,
        /** refused: kind, namespace or manifest not allowed; the reason says which */
        REJECTED,
        /** older epoch than the one applied; ignored */
        STALE,
        /** the cluster refused or failed; the reason says why; the broker may retry */
        FAILED
    }

    public CommandResult {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(placementId, "placementId");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(outcome, "outcome");
        reason = reason == null ? "" : reason;
        Objects.requireNonNull(at, "at");
    }
}
