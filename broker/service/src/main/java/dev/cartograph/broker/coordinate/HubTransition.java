package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.protocol.PlacementRecord;
import java.util.Optional;

/**
 * What a change of a federated hub object does to its placement: one switch over the placement's state, pure
 * ({@link HubObjects} carries the step out through the part it names). Level-triggered: the same object seen again
 * leads to the same step, and each step is idempotent.
 */
final class HubTransition {
    private HubTransition() {}

    /** What to do with the object. */
    enum Step {
        /** It is being deleted: its copy is deleted first, then its finalizer released ({@link Deletion}). */
        DELETE,
        /** New: held with a finalizer and queued for the scheduling cycle ({@link Submission#submit}), at epoch 1. */
        SUBMIT,
        /** It failed and the user changed it since: submitted again at the next epoch. */
        RESUBMIT,
        /** It has a copy on a cluster: a change is forwarded if it fits there ({@link Updates#placed}). */
        UPDATE,
        /** It waits: attempted again when it now asks for something else, or is suspended. */
        REQUEUE_IF_CHANGED,
        /** It is suspended: still suspended, its copy follows; resumed, it is planned again ({@link Suspension}). */
        SUSPENSION,
        /** Nothing to do but keep its finalizer (failed and unchanged, or placed nowhere yet). */
        HOLD,
        /** Its deletion is under way: its answer finishes it. */
        NONE
    }

    /**
     * @param p          its placement, when it has one
     * @param failedSpec the spec it had when it failed, when it failed and this instance knows that spec
     */
    static Step next(Optional<PlacementRecord> p, HubObject object, Optional<JsonNode> failedSpec) {
        if (object.deleting()) {
            return Step.DELETE;
        }
        if (p.isEmpty()) {
            return Step.SUBMIT;
        }
        return switch (p.get().state()) {
            case PLACED, APPLIED -> p.get().cluster().isPresent() ? Step.UPDATE : Step.HOLD;
            case FAILED ->
                failedSpec.filter(spec -> !spec.equals(object.spec())).isPresent() ? Step.RESUBMIT : Step.HOLD;
            case QUEUED -> Step.REQUEUE_IF_CHANGED;
            case SUSPENDED -> Step.SUSPENSION;
            case DELETING -> Step.NONE;
        };
    }
}
