package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;

/** Where the coordinator's decisions go (Kafka in the service; a list in tests). */
public interface Outbox {
    /** Writes the record and returns once it is durable; throws when it could not be made durable. */
    void placement(PlacementRecord record) throws Exception;

    /** The hub object is gone: a tombstone for its placement. */
    void forget(String uid) throws Exception;

    /** Sends a command to one cluster's agent (its own topic). */
    void command(String cluster, Command command);
}
