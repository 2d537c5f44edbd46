package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;

/**
 * Where the coordinator's decisions go (Kafka in the service; a list in tests). Called on the
 * coordinator's thread only. The coordinator hands it each batch's writes at once ({@link #write}); the single-item
 * methods are what a simple outbox implements.
 */
public interface Outbox {
    /** One durable write of a batch. */
    sealed interface Write {
        /** A placement record, keyed by its uid on the placements topic. */
        record Placement(PlacementRecord record) implements Write {}

        /** The placement is gone: a tombstone for its uid. */
        record Tombstone(String uid) implements Write {}

        /** A command to one cluster's agent, on that cluster's topic. */
        record ToCluster(String cluster, Command command) implements Write {}
    }

    /** A command the outbox could not make durable (the batch it belongs to is not committed). */
    final class NotDurable extends Exception {
        public NotDurable(String message) {
            super(message);
        }
    }

    /**
     * Writes a batch, in order: every write durable, or none of them (Kafka: one transaction) — so a placement record
     * and the command it leads to are never one without the other. Returns once they are; throws when they could not
     * be made durable ({@link Fenced} when deposed). The default writes one at a time, for outboxes whose writes cannot
     * fail halfway (tests); a real one overrides it.
     */
    default void write(java.util.List<Write> writes) throws Exception {
        for (Write w : writes) {
            if (w instanceof Write.Placement p) {
                placement(p.record());
            } else if (w instanceof Write.Tombstone t) {
                forget(t.uid());
            } else if (w instanceof Write.ToCluster c && !command(c.cluster(), c.command())) {
                throw new NotDurable(c.command().getClass().getSimpleName() + " for "
                        + c.command().placementId() + " to " + c.cluster() + " is not durable");
            }
        }
    }

    /**
     * This instance is about to act as leader of {@code term}: from now on anything an earlier leader
     * (or an earlier incarnation of this one) still tries to write must not count. Kafka does this by
     * fencing the previous producer of the same transactional id. Returns once that holds; throws when
     * it could not be done (the coordinator tries again at its next tick).
     */
    default void activate(long term) throws Exception {}

    /**
     * Why this command can never be made durable — it is larger than one record may be — or empty when it can. Asked
     * before anything that leads to it is staged, so a gang too large to send is refused with the numbers instead of
     * being resent for ever. The default (an outbox with no record limit) takes everything.
     */
    default java.util.Optional<String> tooLarge(Command command) {
        return java.util.Optional.empty();
    }

    /** Writes the record and returns once it is durable; throws when it could not be made durable ({@link Fenced} when deposed). */
    void placement(PlacementRecord record) throws Exception;

    /**
     * Writes the records together: all durable or none (a preemption's victims and its preemptor). Returns once they
     * are; throws as {@link #placement} does.
     */
    default void placements(java.util.List<PlacementRecord> records) throws Exception {
        for (PlacementRecord r : records) {
            placement(r);
        }
    }

    /** The hub object is gone: a tombstone for its placement. */
    void forget(String uid) throws Exception;

    /**
     * Sends a command to one cluster's agent (its own topic); a deposed leader's commands never reach
     * an agent. Returns whether it is durable; one that is not is sent again when the agent does not answer.
     */
    boolean command(String cluster, Command command);

    /**
     * This instance's writes are refused until it is activated again: a newer leader took over, or its writer was lost
     * (Kafka aborted a transaction that outlived its timeout). It must stop acting as leader; {@link Leadership#fenced}
     * decides what follows.
     */
    final class Fenced extends Exception {
        public Fenced(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
