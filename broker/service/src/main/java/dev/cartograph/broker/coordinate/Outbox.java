package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;

/**
 * Where the coordinator's decisions go (Kafka in the service; a list in tests). Called on the
 * coordinator's thread only.
 */
public interface Outbox {
    /**
     * This instance is about to act as leader of {@code term}: from now on anything an earlier leader
     * (or an earlier incarnation of this one) still tries to write must not count. Kafka does this by
     * fencing the previous producer of the same transactional id. Returns once that holds; throws when
     * it could not be done (the coordinator tries again at its next tick).
     */
    default void activate(long term) throws Exception {}

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

    /** A newer leader has taken over: this instance's writes are refused and it must stop acting as leader. */
    final class Fenced extends Exception {
        public Fenced(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
