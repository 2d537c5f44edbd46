package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.coordinate.PlacementState.Watch;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What happens to one placement when something is observed of it — its hub object changed or went away, its agent
 * answered a command, or the clock ticked — as one switch over the placement's state. Pure: given the placement's
 * record and what was observed, the step to take; {@link PlacementMachine} carries it out through the part the step
 * names, and the scheduling cycle ({@link SchedulingCycle}) places what is queued. Level-triggered: the same
 * observation again leads to the same step, and each step is idempotent. Tested case by case without a coordinator.
 *
 * <p>Read here: what happens to a gang when its cluster stops reporting ({@link #placed}, {@link #applied}: lost
 * after the failover timeout — re-placed unless it runs and replace-running is off), when its member does not start
 * it, when its copy vanishes, when nobody answers a command, when its member refuses it, and when it is deleted.
 */
final class PlacementTransition {
    private static final Set<String> FINISHED = Set.of("Completed", "Failed");

    private PlacementTransition() {}

    /** What was observed of one placement. */
    sealed interface Observed {
        /**
         * Its hub object was added, changed, or offered again.
         *
         * @param failedSpec the spec it had when it failed, when it failed and this instance knows that spec
         * @param suspends   whether it can be read and its definition reads it as suspended
         * @param copies     when the broker has no record of it: the clusters whose agents report a copy of it, each
         *                   with the epoch that copy was applied at (0 when not said); empty otherwise
         */
        record HubChanged(HubObject object, Optional<JsonNode> failedSpec, boolean suspends, Map<String, Long> copies)
                implements Observed {
            public HubChanged {
                copies = Map.copyOf(copies);
            }

            HubChanged(HubObject object, Optional<JsonNode> failedSpec, boolean suspends) {
                this(object, failedSpec, suspends, Map.of());
            }
        }

        /** Its hub object is gone from the hub (removed without the broker's finalizer running, e.g. forced). */
        record HubGone() implements Observed {}

        /**
         * Its agent answered a command.
         *
         * @param hasObject  whether its hub object is still there
         * @param memberRuns whether its member reports a copy of it (then a refusal was of a change, not of the copy)
         */
        record Answer(CommandResult result, boolean hasObject, boolean memberRuns) implements Observed {}

        /** The clock ticked: what is known now of its copy and its cluster. */
        record Tick(Seen seen, Timeouts timeouts) implements Observed {}
    }

    /** The timeouts the broker was configured with. */
    record Timeouts(Duration heartbeat, Duration failover, Duration start, boolean replaceRunning) {}

    /**
     * What is known of one placement with a copy on a cluster, and of its cluster, at a tick.
     *
     * @param lastSent      when the last command at its epoch went out (the record's time when none did)
     * @param answerPending whether its agent is alive and still answering commands sent before this one's
     * @param ready         whether its cluster was heard from within the heartbeat timeout
     * @param alive         whether its cluster was heard from within the failover timeout
     * @param started       whether its member copy has started (its pods ran)
     * @param memberPhase   the member copy's phase, when there is one
     * @param pendingPods   pods of this epoch its cluster still reports unscheduled (empty: not reported)
     * @param listed        whether the cluster's latest summary lists its copy (empty: no summary)
     * @param received      when the cluster's latest summary was received (empty: none)
     * @param kindWatched   whether its cluster's agent watches its kind now (one it cannot watch is not in the
     *                      summaries, gone or not)
     * @param shownPhase    the phase its hub object shows
     * @param resendable    whether its hub object can be sent again as it is (present, not deleting, unchanged since)
     * @param sinceActive   how long this instance has been active
     */
    record Seen(
            Watch watch,
            Instant lastSent,
            boolean answerPending,
            boolean ready,
            boolean alive,
            boolean started,
            String memberPhase,
            Optional<Long> pendingPods,
            Optional<Boolean> listed,
            Optional<Instant> received,
            boolean kindWatched,
            String shownPhase,
            boolean resendable,
            Duration sinceActive,
            Instant now) {}

    /** What to do. */
    sealed interface Step {
        /** Nothing to do: an answer that is not to its current command, or not final; a deletion under way. */
        Step KEEP = new Keep();
        /** Deleted on the hub: its copy is deleted first, then its finalizer released ({@link Deletion}). */
        Step DELETE = new Delete();
        /** It has a copy on a cluster: a change is forwarded if it fits there ({@link Updates#placed}). */
        Step UPDATE = new Update();
        /**
         * It has a copy on a cluster and the user suspended it: the copy is suspended at the next epoch and what it
         * held is free at once ({@link Suspension#suspend}).
         */
        Step SUSPEND = new Suspend();
        /** It waits: attempted again when it now asks for something else, or is suspended. */
        Step REQUEUE_IF_CHANGED = new RequeueIfChanged();
        /** It is suspended: still suspended, its copy follows; resumed, it is queued again ({@link Suspension}). */
        Step SUSPENDED_CHANGED = new SuspendedChanged();
        /** Failed and unchanged, or placed nowhere yet: its finalizer is kept, nothing else. */
        Step HOLD = new Hold();
        /** Its copy exists on its cluster now: the placement is APPLIED. */
        Step APPLIED = new Applied();
        /** Its member refused a change of the copy that runs there: only the change is refused. */
        Step CHANGE_REFUSED = new ChangeRefused();
        /** Its member refused the copy: the gang goes to the next cluster that fits, that one left out. */
        Step REFUSED = new Refused();
        /** Its copy is gone from the cluster: the deletion is finished. */
        Step DELETED = new Deleted();

        record Keep() implements Step {}

        record Delete() implements Step {}

        /** New, or failed and changed since: held with a finalizer and queued at {@code epoch} ({@link Submission}). */
        record Submit(long epoch) implements Step {}

        /**
         * The broker has no record of it, but it was placed: a copy runs on {@code cluster}, or its hub object says it
         * was placed there. Its record is made again from that, at {@code epoch} (no lower than the hub object's and
         * the copy's), APPLIED when {@code copyThere}, else PLACED (its apply is sent again, idempotently); then it is
         * handled as any placed gang is. Nothing that runs is fenced or placed twice because a record was lost.
         */
        record Adopt(String cluster, long epoch, boolean copyThere) implements Step {}

        record Update() implements Step {}

        record Suspend() implements Step {}

        record RequeueIfChanged() implements Step {}

        record SuspendedChanged() implements Step {}

        record Hold() implements Step {}

        record Applied() implements Step {}

        record ChangeRefused() implements Step {}

        record Refused() implements Step {}

        record Deleted() implements Step {}

        /** Nothing to do now; failover remembers {@code watch} of its copy. */
        record Wait(Watch watch) implements Step {}

        /** Send its last command (the apply, or the delete) again, at the same epoch: the agent is idempotent. */
        record Resend(Watch watch) implements Step {}

        /** Its running copy is on a lost cluster and stays (replace-running is off): say so once per epoch. */
        record ReportLost(String message, Watch watch) implements Step {}

        /**
         * Take it back: queued again at the next epoch, its copy there fenced, its nodes released, its next copy
         * watched afresh; {@code avoid}: not on that cluster next time.
         */
        record TakeBack(String reason, EventReason why, boolean avoid) implements Step {}
    }

    /** The step for one placement ({@code p} empty: the broker has no record of it). */
    static Step next(Optional<PlacementRecord> p, Observed o) {
        if (p.isEmpty() && o instanceof Observed.HubChanged h) {
            Optional<Step> adopt = adopt(h);
            if (adopt.isPresent()) {
                return adopt.get();
            }
        }
        if (o instanceof Observed.HubChanged h && h.object().deleting()) {
            return p.filter(r -> r.state() == PlacementRecord.State.DELETING).isPresent() ? Step.KEEP : Step.DELETE;
        }
        if (p.isEmpty()) {
            // above any epoch it was placed at before, should its record have been lost
            return o instanceof Observed.HubChanged h
                    ? new Step.Submit(h.object().shownEpoch().map(e -> e + 1).orElse(1L))
                    : Step.KEEP;
        }
        PlacementRecord r = p.get();
        if (o instanceof Observed.Answer a && !current(r, a.result())) {
            return Step.KEEP; // an older epoch, or a cluster it has left
        }
        return switch (r.state()) {
            case QUEUED -> waiting(o, Step.REQUEUE_IF_CHANGED);
            case SUSPENDED -> waiting(o, Step.SUSPENDED_CHANGED);
            case FAILED ->
                o instanceof Observed.HubChanged h
                        ? h.failedSpec()
                                        .filter(spec -> !spec.equals(h.object().spec()))
                                        .isPresent()
                                ? new Step.Submit(r.epoch() + 1) // the user changed it since it failed: tried again
                                : Step.HOLD
                        : waiting(o, Step.HOLD);
            case PLACED -> placed(r, o);
            case APPLIED -> applied(r, o);
            case DELETING -> deleting(o);
        };
    }

    /**
     * A hub object the broker has no record of, that was placed all the same (its record lost: a standby that could
     * not read it, a placements topic recreated, an unclean leader election): where it runs, and at which epoch. The
     * copies its agents report come first — on the cluster its hub object names, else the first by name (a copy left
     * elsewhere is fenced once the record stands); without a copy, the hub object's own marks count when they are the
     * broker's whole set (cluster, phase, epoch and the broker's finalizer), so a user's copied labels place nothing.
     */
    private static Optional<Step> adopt(Observed.HubChanged h) {
        HubObject object = h.object();
        String cluster;
        if (h.copies().containsKey(object.shownCluster())) {
            cluster = object.shownCluster();
        } else if (!h.copies().isEmpty()) {
            cluster = new java.util.TreeSet<>(h.copies().keySet()).first();
        } else if (!object.shownCluster().isEmpty()
                && !object.shownPhase().isEmpty()
                && object.shownEpoch().isPresent()
                && object.finalized()) {
            cluster = object.shownCluster();
        } else {
            return Optional.empty();
        }
        long epoch =
                Math.max(Math.max(1, object.shownEpoch().orElse(1L)), h.copies().getOrDefault(cluster, 0L));
        return Optional.of(new Step.Adopt(cluster, epoch, h.copies().containsKey(cluster)));
    }

    /** Only an answer to the placement's current epoch, from the cluster it is placed on, counts. */
    private static boolean current(PlacementRecord p, CommandResult r) {
        return r.epoch() == p.epoch() && p.cluster().equals(Optional.of(r.cluster()));
    }

    /** Queued, suspended or failed: it runs nowhere, so answers and ticks change nothing. */
    private static Step waiting(Observed o, Step onChange) {
        if (o instanceof Observed.HubChanged) {
            return onChange;
        }
        if (o instanceof Observed.HubGone) {
            return Step.DELETE;
        }
        return o instanceof Observed.Tick t ? new Step.Wait(t.seen().watch()) : Step.KEEP;
    }

    /** Placed: its apply went to its cluster, not answered yet. */
    private static Step placed(PlacementRecord p, Observed o) {
        if (o instanceof Observed.Answer a) {
            return a.result().outcome() == CommandResult.Outcome.APPLIED ? Step.APPLIED : refusal(a);
        }
        if (o instanceof Observed.Tick t) {
            Seen s = t.seen();
            if (graceOver(s, t.timeouts()) && !s.alive()) {
                return lost(p, s, t.timeouts());
            }
            return unanswered(s, t.timeouts()) && s.resendable()
                    ? new Step.Resend(s.watch())
                    : new Step.Wait(s.watch());
        }
        return copyThere(p, o);
    }

    /** Applied: its copy exists on its cluster. */
    private static Step applied(PlacementRecord p, Observed o) {
        if (o instanceof Observed.Answer a) {
            return refusal(a);
        }
        if (o instanceof Observed.Tick t) {
            Seen s = t.seen();
            if (!graceOver(s, t.timeouts())) {
                return new Step.Wait(s.watch()); // agents get one failover timeout from a new leader to report
            }
            if (!s.alive()) {
                return lost(p, s, t.timeouts());
            }
            return stuck(p, s, t.timeouts()).orElseGet(() -> gone(p, s, t.timeouts()));
        }
        return copyThere(p, o);
    }

    /** Being deleted: its Delete went to its cluster; the answer finishes it, silence sends it again. */
    private static Step deleting(Observed o) {
        if (o instanceof Observed.Answer a) {
            return a.result().outcome() == CommandResult.Outcome.DELETED ? Step.DELETED : Step.KEEP;
        }
        if (o instanceof Observed.Tick t) {
            return unanswered(t.seen(), t.timeouts())
                    ? new Step.Resend(t.seen().watch())
                    : new Step.Wait(t.seen().watch());
        }
        return Step.KEEP; // its deletion is under way
    }

    /** A placed or applied gang's hub object changed (suspended, or otherwise), or went away. */
    private static Step copyThere(PlacementRecord p, Observed o) {
        if (o instanceof Observed.HubGone) {
            return Step.DELETE; // removed without the finalizer running (forced): its copy is still deleted
        }
        if (p.cluster().isEmpty()) {
            return Step.HOLD;
        }
        return ((Observed.HubChanged) o).suspends() ? Step.SUSPEND : Step.UPDATE;
    }

    /** A refusal of its copy, or of a change of a copy that runs; anything else (STALE, RETRY) is not final. */
    private static Step refusal(Observed.Answer a) {
        CommandResult.Outcome outcome = a.result().outcome();
        if (outcome != CommandResult.Outcome.REJECTED && outcome != CommandResult.Outcome.FAILED || !a.hasObject()) {
            return Step.KEEP; // an unanswered command is sent again; a gone object's deletion takes care of it
        }
        return a.memberRuns() ? Step.CHANGE_REFUSED : Step.REFUSED;
    }

    private static boolean graceOver(Seen s, Timeouts t) {
        return s.sinceActive().compareTo(t.failover()) >= 0;
    }

    /**
     * Its command went unanswered for a heartbeat timeout while its cluster is ready, and its agent is not still
     * working through what was sent before it.
     */
    private static boolean unanswered(Seen s, Timeouts t) {
        return s.ready() && Duration.between(s.lastSent(), s.now()).compareTo(t.heartbeat()) > 0 && !s.answerPending();
    }

    /** Its cluster has been silent past the failover timeout. */
    private static Step lost(PlacementRecord p, Seen s, Timeouts t) {
        String cluster = p.cluster().orElseThrow();
        if (s.started() && !t.replaceRunning()) {
            if (s.watch().lostReported().equals(Optional.of(p.epoch()))) {
                return new Step.Wait(s.watch());
            }
            return new Step.ReportLost(
                    cluster + " has been silent longer than " + t.failover() + "; the gang was " + s.memberPhase()
                            + " there and stays placed (replace-running is off)",
                    new Watch(
                            Optional.of(p.epoch()),
                            s.watch().unlistedSince(),
                            s.watch().listedOnce()));
        }
        return new Step.TakeBack(
                cluster + " lost (silent longer than " + t.failover() + "); re-placing at epoch " + (p.epoch() + 1),
                EventReason.ClusterLost,
                false);
    }

    /**
     * Its member has not started it within the start timeout after it was applied (some of its pods still unbound
     * there, e.g. the member's scheduler put other pods where the broker counted on room).
     */
    private static Optional<Step> stuck(PlacementRecord p, Seen s, Timeouts t) {
        if (Duration.between(p.at(), s.now()).compareTo(t.start()) <= 0
                || s.pendingPods().filter(n -> n > 0).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Step.TakeBack(
                p.cluster().orElseThrow() + " did not start it within " + t.start() + " ("
                        + s.pendingPods().get()
                        + " pods still unscheduled there); re-placing at epoch " + (p.epoch() + 1)
                        + " on another cluster",
                EventReason.Requeued,
                true));
    }

    /**
     * Its cluster's summaries have stopped listing its copy for a heartbeat timeout (deleted on the member, or fenced
     * by an agent cut off from Kafka, ADR 0005) — unless it had finished there. Only a copy once listed can be missed
     * (not one its agent cannot watch, nor one of a kind its agent says it cannot watch for now: a 429 from discovery
     * at its start), and only summaries received a heartbeat timeout after the record count (an agent lists a copy
     * once its cache has it).
     */
    private static Step gone(PlacementRecord p, Seen s, Timeouts t) {
        Watch w = s.watch();
        if (s.listed().isEmpty() || s.received().isEmpty()) {
            return new Step.Wait(w);
        }
        if (!s.kindWatched()) { // its agent cannot see it: unlisted says nothing; judged afresh once it can
            return new Step.Wait(new Watch(w.lostReported(), Optional.empty(), w.listedOnce()));
        }
        boolean listed = s.listed().get();
        boolean listedOnce = listed || w.listedOnce();
        Instant received = s.received().get();
        if (listed || !listedOnce || Duration.between(p.at(), received).compareTo(t.heartbeat()) < 0) {
            return new Step.Wait(new Watch(w.lostReported(), Optional.empty(), listedOnce));
        }
        Instant since = w.unlistedSince().orElse(received);
        if (Duration.between(since, received).compareTo(t.heartbeat()) < 0 || FINISHED.contains(s.shownPhase())) {
            return new Step.Wait(new Watch(w.lostReported(), Optional.of(since), listedOnce));
        }
        return new Step.TakeBack(
                "its copy on " + p.cluster().orElseThrow()
                        + " is gone (deleted there, or fenced by its agent after losing Kafka); re-placing at epoch "
                        + (p.epoch() + 1),
                EventReason.Requeued,
                false);
    }
}
