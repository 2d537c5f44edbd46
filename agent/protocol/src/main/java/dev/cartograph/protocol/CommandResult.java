package dev.cartograph.protocol;

import java.time.Instant;
import java.util.Objects;

/** What came of a command, as the agent reports it on the event stream (key = placement id). Immutable. */
public record CommandResult(
        String cluster, String placementId, long epoch, String command, Outcome outcome, String reason, Instant at) {

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
        /**
         * the cluster refused it for good (RBAC 403, 422 Invalid, an admission webhook's denial, a name taken by an
         * object Cartograph did not create…); the reason carries the API server's message. Final: the broker gives the
         * capacity back and marks the hub object Failed.
         */
        FAILED,
        /**
         * not carried out for now, for a reason that may pass: the API server was unreachable, timed out, throttled
         * (429), failed (5xx) through every retry, or writes are paused by the agent's circuit breaker. Nothing final
         * happened; the object may even exist already. Not final: the broker keeps the placement and sends the command
         * again (the agent's apply is idempotent). A reader older than this value skips the record as undecodable, to
         * the same effect.
         */
        RETRY
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
