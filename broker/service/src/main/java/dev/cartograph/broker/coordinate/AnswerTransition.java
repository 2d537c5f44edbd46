package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import java.util.Optional;

/**
 * What an agent's answer to a command does to one placement: one switch over the answer and the placement's state,
 * pure ({@link AgentReports} carries the step out). Only an answer to the placement's current epoch, from the cluster
 * it is placed on, counts; anything else (an older epoch, a cluster it has left, a placement gone) is ignored.
 */
final class AnswerTransition {
    private AnswerTransition() {}

    /** What to do with an answer. */
    enum Step {
        /** Not this placement's current command, or nothing to do: leave it as it is. */
        IGNORE,
        /** Its copy exists on its cluster now: the placement is APPLIED. */
        APPLIED,
        /** Its member refused a change of the copy that runs there: only the change is refused. */
        CHANGE_REFUSED,
        /** Its member refused the copy: the gang goes to the next cluster that fits, that one left out. */
        REFUSED,
        /** Its copy is gone from the cluster: the deletion is finished. */
        DELETED
    }

    /**
     * @param p          the placement the answer names, if the broker still knows it
     * @param hasObject  whether its hub object is still there
     * @param memberRuns whether its member reports a copy of it (then a refusal was of a change, not of the copy)
     */
    static Step next(Optional<PlacementRecord> p, CommandResult r, boolean hasObject, boolean memberRuns) {
        if (p.isEmpty() || r.epoch() != p.get().epoch() || !p.get().cluster().equals(Optional.of(r.cluster()))) {
            return Step.IGNORE;
        }
        PlacementRecord.State state = p.get().state();
        return switch (r.outcome()) {
            case APPLIED -> state == PlacementRecord.State.PLACED ? Step.APPLIED : Step.IGNORE;
            case REJECTED, FAILED -> {
                boolean copyOfIt = state == PlacementRecord.State.PLACED || state == PlacementRecord.State.APPLIED;
                if (!copyOfIt || !hasObject) {
                    yield Step.IGNORE;
                }
                yield memberRuns ? Step.CHANGE_REFUSED : Step.REFUSED;
            }
            case DELETED -> state == PlacementRecord.State.DELETING ? Step.DELETED : Step.IGNORE;
            default -> Step.IGNORE; // STALE, and RETRY: not final; an unanswered command is sent again
        };
    }
}
