package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.Command;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every effect the coordinator has outside itself, except placement records (see {@link PlacementStore}):
 * commands to agents and writes on hub objects. Each one is made only while this instance is active
 * — the gate is read at the moment of the write, so a deposed leader stops at once, even in the middle
 * of a batch. Coordinator thread only.
 */
final class Effects {
    private static final Logger LOG = LoggerFactory.getLogger(Effects.class);
    private final Outbox outbox;
    private final Hub hub;
    private final BooleanSupplier active;

    Effects(Outbox outbox, Hub hub, BooleanSupplier active) {
        this.outbox = outbox;
        this.hub = hub;
        this.active = active;
    }

    boolean active() {
        return active.getAsBoolean();
    }

    /** Sends a command; true when it is durable in the cluster's topic (false when not active, or Kafka did not take it). */
    boolean command(String cluster, Command command) {
        if (active()) {
            return outbox.command(cluster, command);
        }
        LOG.debug(
                "not active: {} for {} to {} not sent",
                command.getClass().getSimpleName(),
                command.placementId(),
                cluster);
        return false;
    }

    void event(HubObject object, EventReason reason, String message) {
        if (active()) {
            hub.event(object.raw(), reason.type(), reason.name(), message);
        }
    }

    /** Sets these labels and annotations on the hub object (an empty value removes one). */
    void mark(HubObject object, Map<String, String> labels, Map<String, String> annotations) {
        if (active()) {
            hub.mark(object.raw(), labels, annotations);
        }
    }

    void status(HubObject object, JsonNode status) {
        if (active()) {
            hub.status(object.raw(), status);
        }
    }

    void addFinalizer(HubObject object) {
        if (active() && !object.finalized()) {
            hub.addFinalizer(object.raw());
        }
    }

    void removeFinalizer(HubObject object) {
        if (active()) {
            hub.removeFinalizer(object.raw());
        }
    }
}
