package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A federated hub object changed or went away: each is remembered in the {@link PlacementStore} and, while this
 * instance is active, handed to the part its placement's state calls for — {@link Placing} for one not
 * placed yet (or failed and changed since), {@link Updates} for one placed, {@link Deletion} for one
 * being deleted. Level-triggered: the same object seen again does nothing new. Coordinator thread only.
 */
final class HubObjects {
    private final PlacementStore store;
    private final BooleanSupplier active;
    private final Placing placing;
    private final Deletion deletion;
    private final Updates updates;
    private final Suspension suspension;
    private final Effects effects;

    HubObjects(
            PlacementStore store,
            BooleanSupplier active,
            Placing placing,
            Deletion deletion,
            Updates updates,
            Suspension suspension,
            Effects effects) {
        this.store = store;
        this.suspension = suspension;
        this.active = active;
        this.placing = placing;
        this.deletion = deletion;
        this.updates = updates;
        this.effects = effects;
    }

    /**
     * The object was added or changed (or offered again). Returns the cluster whose capacity was freed or
     * taken, if any.
     */
    Optional<String> changed(HubObject object) {
        store.object(object);
        if (!active.getAsBoolean()) {
            return Optional.empty();
        }
        Optional<PlacementRecord> found = store.placement(object.uid());
        if (object.deleting()) {
            return freed(deletion.delete(object, found), found);
        }
        if (found.isEmpty()) {
            placing.submit(object, 1);
            return Optional.empty();
        }
        PlacementRecord p = found.get();
        boolean capacityChanged = false;
        if ((p.state() == State.PLACED || p.state() == State.APPLIED)
                && p.cluster().isPresent()) {
            capacityChanged = updates.placed(p, object);
        } else if (p.state() == State.FAILED && placing.changedSinceFailure(p, object)) {
            placing.submit(
                    object,
                    p.epoch() + 1); // the user changed a gang that failed: try again (a copy left anywhere is fenced)
            return Optional.empty();
        } else if (p.state() == State.QUEUED) {
            placing.queuedChanged(p, object);
        } else if (p.state() == State.SUSPENDED) {
            effects.addFinalizer(object);
            return suspension.changed(p, object);
        }
        if (p.state() != State.DELETING) {
            effects.addFinalizer(object);
        }
        return freed(capacityChanged, found);
    }

    /** The object is gone from the hub. Returns the cluster whose capacity was freed, if any. */
    Optional<String> deleted(HubObject object) {
        Optional<String> freed = Optional.empty();
        if (active.getAsBoolean()) {
            Optional<PlacementRecord> p = store.placement(object.uid());
            if (p.isPresent() && p.get().state() != State.DELETING) {
                freed = freed(
                        deletion.delete(object, p),
                        p); // removed without our finalizer running (forced): still delete the copy
            }
        }
        store.objectGone(object.uid());
        return freed;
    }

    private static Optional<String> freed(boolean changed, Optional<PlacementRecord> p) {
        return changed ? p.flatMap(PlacementRecord::cluster) : Optional.empty();
    }
}
