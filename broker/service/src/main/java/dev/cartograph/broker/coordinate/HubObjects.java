package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A federated hub object changed or went away: each is remembered in the {@link PlacementStore} and, while this
 * instance is active, handed to the part its placement's state calls for ({@link HubTransition} says which, pure) —
 * {@link Submission} for one not placed yet (or failed and changed since), {@link Updates} for one placed,
 * {@link Suspension} for one suspended, {@link Deletion} for one being deleted. Level-triggered: the same object seen
 * again does nothing new. Coordinator thread only.
 */
final class HubObjects {
    private final PlacementStore store;
    private final BooleanSupplier active;
    private final Submission submission;
    private final Deletion deletion;
    private final Updates updates;
    private final Suspension suspension;
    private final Effects effects;

    HubObjects(
            PlacementStore store,
            BooleanSupplier active,
            Submission submission,
            Deletion deletion,
            Updates updates,
            Suspension suspension,
            Effects effects) {
        this.store = store;
        this.suspension = suspension;
        this.active = active;
        this.submission = submission;
        this.deletion = deletion;
        this.updates = updates;
        this.effects = effects;
    }

    /** The object was added or changed (or offered again). */
    void changed(HubObject object) {
        store.object(object);
        if (!active.getAsBoolean()) {
            return;
        }
        Optional<PlacementRecord> found = store.placement(object.uid());
        Optional<com.fasterxml.jackson.databind.JsonNode> failedSpec =
                store.state(object.uid()).flatMap(PlacementState::failedSpec);
        HubTransition.Step step = HubTransition.next(found, object, failedSpec);
        if (step == HubTransition.Step.UPDATE
                || step == HubTransition.Step.REQUEUE_IF_CHANGED
                || step == HubTransition.Step.SUSPENSION
                || step == HubTransition.Step.HOLD) {
            effects.addFinalizer(object); // level-triggered: a finalizer lost on the hub is put back (submit holds it)
        }
        switch (step) {
            case DELETE -> deletion.delete(object, found);
            case SUBMIT -> submission.submit(object, 1);
            // the user changed a gang that failed: tried again (a copy left anywhere is fenced)
            case RESUBMIT -> submission.submit(object, found.get().epoch() + 1);
            case UPDATE -> updates.placed(found.get(), object);
            case REQUEUE_IF_CHANGED -> submission.queuedChanged(found.get(), object);
            case SUSPENSION -> suspension.changed(found.get(), object);
            case HOLD -> {
                if (found.get().state() == State.FAILED && failedSpec.isEmpty()) {
                    // failed before this instance saw it: the spec it has now is the one that failed
                    store.update(object.uid(), s -> s.withFailedSpec(Optional.of(object.spec())));
                }
            }
            case NONE -> {}
        }
    }

    /** The object is gone from the hub. */
    void deleted(HubObject object) {
        if (active.getAsBoolean()) {
            Optional<PlacementRecord> p = store.placement(object.uid());
            if (p.isPresent() && p.get().state() != State.DELETING) {
                deletion.delete(object, p); // removed without our finalizer running (forced): still delete the copy
            }
        }
        store.objectGone(object.uid());
    }
}
