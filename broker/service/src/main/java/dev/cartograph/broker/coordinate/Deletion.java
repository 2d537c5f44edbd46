package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Deleting a hub object deletes its member copy first: the placement goes DELETING (durable), the
 * Delete goes to the cluster, and when the agent answers DELETED the tombstone is written, everything
 * about the placement forgotten and the finalizer removed. An unanswered Delete is sent again by
 * {@link Failover}; a cluster that is not ready gets the Delete in its topic and the hub object is
 * let go at once. Coordinator thread only.
 */
final class Deletion {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Deletion.class);
    private final BrokerSettings settings;
    private final PlacementStore store;
    private final Fleet fleet;
    private final Forwarding forwarding;
    private final Effects effects;
    private final Clock clock;
    private final Consumer<String> forget;

    /** @param forget forgets everything about a placement, in every part of the coordinator */
    Deletion(
            BrokerSettings settings,
            PlacementStore store,
            Fleet fleet,
            Forwarding forwarding,
            Effects effects,
            Clock clock,
            Consumer<String> forget) {
        this.settings = settings;
        this.store = store;
        this.fleet = fleet;
        this.forwarding = forwarding;
        this.effects = effects;
        this.clock = clock;
        this.forget = forget;
    }

    /** The hub object is being deleted (or is gone without our finalizer running). */
    void delete(HubObject object, Optional<PlacementRecord> placement) {
        delete(Optional.of(object), placement);
    }

    /**
     * The placement's hub object is gone from the hub, unseen: deleted while no leader acted, before the broker's
     * finalizer held it ({@link HubInventory}). Its copy is deleted as any deleted gang's is.
     */
    void orphaned(PlacementRecord p) {
        LOG.warn(
                "{}: its hub object is gone from the hub (deleted while no leader acted); its copy{} is deleted",
                p.target(),
                p.cluster().map(c -> " on " + c).orElse(""));
        delete(Optional.empty(), Optional.of(p));
    }

    private void delete(Optional<HubObject> object, Optional<PlacementRecord> placement) {
        if (placement.isEmpty()) {
            object.ifPresent(effects::removeFinalizer);
            return;
        }
        PlacementRecord p = placement.get();
        if (p.state() == State.DELETING) {
            return;
        }
        if (p.cluster().isPresent() // placed, or suspended or preempted with a copy there
                && (p.state() == State.PLACED
                        || p.state() == State.APPLIED
                        || p.state() == State.SUSPENDED
                        || p.state() == State.QUEUED)) {
            String cluster = p.cluster().get();
            PlacementRecord deleting = p.with(State.DELETING, "", clock.instant());
            store.write(deleting);
            store.release(p.uid());
            forwarding.delete(deleting, cluster);
            if (!fleet.ready(cluster, clock.instant(), settings.heartbeatTimeout())) {
                object.ifPresent(o -> effects.event(
                        o,
                        EventReason.Deleting,
                        cluster + " is not ready; its copy is deleted when its agent returns"));
                finish(deleting, object);
            }
            return;
        }
        finish(p, object);
    }

    /**
     * A deletion waiting on a cluster that is not ready: its Delete is sent again, and once it is
     * durable in the cluster's topic (the agent carries it out when it returns) the hub object is let go.
     */
    void retryWhereNotReady() {
        for (PlacementRecord p : java.util.List.copyOf(store.inState(State.DELETING))) {
            String cluster = p.cluster().orElse("");
            if (!cluster.isEmpty() && !fleet.ready(cluster, clock.instant(), settings.heartbeatTimeout())) {
                forwarding.delete(p, cluster);
                finish(p, store.object(p.uid()));
            }
        }
    }

    /** The member copy is gone (or will be deleted when its agent returns): let the hub object go. */
    void finish(PlacementRecord p, Optional<HubObject> object) {
        store.tombstone(p.uid());
        forget.accept(p.uid());
        object.ifPresent(effects::removeFinalizer);
    }
}
