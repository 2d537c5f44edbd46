package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.PlacementState.Watch;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * What the clock decides for one placement that has a copy on a cluster, given what the broker has seen of it and
 * of its cluster: one switch over the placement's state, pure (tested case by case without a coordinator;
 * {@link Failover} gathers what it needs and carries out the step). This is where to read what happens to a gang
 * when its cluster stops reporting, when its member does not start it, when its copy vanishes, or when nobody
 * answers a command.
 */
final class ClockTransition {
    private static final Set<String> FINISHED = Set.of("Completed", "Failed");

    private ClockTransition() {}

    /** The timeouts the broker was configured with. */
    record Timeouts(Duration heartbeat, Duration failover, Duration start, boolean replaceRunning) {}

    /**
     * What is known of one placement and its cluster at a tick.
     *
     * @param record          the placement's record (its cluster is present)
     * @param lastSent        when the last command at its epoch went out (the record's time when none did)
     * @param answerPending   whether its agent is alive and still answering commands sent before this one's
     * @param ready           whether its cluster was heard from within the heartbeat timeout
     * @param alive           whether its cluster was heard from within the failover timeout
     * @param started         whether its member copy has started (its pods ran)
     * @param memberPhase     the member copy's phase, when there is one
     * @param pendingPods     pods of this epoch its cluster still reports unscheduled (empty: not reported)
     * @param listed          whether the cluster's latest summary lists its copy (empty: no summary)
     * @param received        when the cluster's latest summary was received (empty: none)
     * @param shownPhase      the phase its hub object shows
     * @param resendable      whether its hub object can be sent again as it is (present, not deleting, unchanged since)
     * @param sinceActive     how long this instance has been active
     */
    record Seen(
            PlacementRecord record,
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
            String shownPhase,
            boolean resendable,
            Duration sinceActive,
            Instant now) {}

    /** What to do, and what failover remembers of the placement from now on. */
    sealed interface Step {
        Watch watch();

        /** Nothing to do now. */
        record Wait(Watch watch) implements Step {}

        /** Send its last command (the apply, or the delete) again, at the same epoch: the agent is idempotent. */
        record Resend(Watch watch) implements Step {}

        /** Its running copy is on a lost cluster and stays (replace-running is off): say so once per epoch. */
        record ReportLost(String message, Watch watch) implements Step {}

        /**
         * Take it back: queued again at the next epoch, its copy there fenced, its nodes released; {@code avoid}: not
         * on that cluster next time.
         */
        record TakeBack(String reason, EventReason why, boolean avoid) implements Step {
            @Override
            public Watch watch() {
                return Watch.NONE; // its next copy is watched afresh
            }
        }
    }

    /** The step for one placement at a tick. */
    static Step next(Seen s, Timeouts t) {
        PlacementRecord p = s.record();
        String cluster = p.cluster().orElseThrow();
        boolean ready = s.ready();
        boolean alive = s.alive();
        boolean graceOver = s.sinceActive().compareTo(t.failover()) >= 0; // agents get one failover timeout to report
        return switch (p.state()) {
            case PLACED -> {
                if (graceOver && !alive) {
                    yield lost(s, t, cluster);
                }
                yield unanswered(s, t, ready) && s.resendable() ? new Step.Resend(s.watch()) : new Step.Wait(s.watch());
            }
            case APPLIED -> {
                if (!graceOver) {
                    yield new Step.Wait(s.watch());
                }
                if (!alive) {
                    yield lost(s, t, cluster);
                }
                Optional<Step> stuck = stuck(s, t, cluster);
                yield stuck.isPresent() ? stuck.get() : gone(s, t, cluster);
            }
            case DELETING -> unanswered(s, t, ready) ? new Step.Resend(s.watch()) : new Step.Wait(s.watch());
            case QUEUED, SUSPENDED, FAILED -> new Step.Wait(s.watch());
        };
    }

    /**
     * Its command went unanswered for a heartbeat timeout while its cluster is ready, and its agent is not still
     * working through what was sent before it.
     */
    private static boolean unanswered(Seen s, Timeouts t, boolean ready) {
        return ready && Duration.between(s.lastSent(), s.now()).compareTo(t.heartbeat()) > 0 && !s.answerPending();
    }

    /** Its cluster has been silent past the failover timeout. */
    private static Step lost(Seen s, Timeouts t, String cluster) {
        PlacementRecord p = s.record();
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
    private static Optional<Step> stuck(Seen s, Timeouts t, String cluster) {
        PlacementRecord p = s.record();
        if (Duration.between(p.at(), s.now()).compareTo(t.start()) <= 0
                || s.pendingPods().filter(n -> n > 0).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Step.TakeBack(
                cluster + " did not start it within " + t.start() + " ("
                        + s.pendingPods().get()
                        + " pods still unscheduled there); re-placing at epoch " + (p.epoch() + 1)
                        + " on another cluster",
                EventReason.Requeued,
                true));
    }

    /**
     * Its cluster's summaries have stopped listing its copy for a heartbeat timeout (deleted on the member, or fenced
     * by an agent cut off from Kafka, ADR 0005) — unless it had finished there. Only a copy once listed can be missed
     * (not one its agent cannot watch), and only summaries received a heartbeat timeout after the record count (an
     * agent lists a copy once its cache has it).
     */
    private static Step gone(Seen s, Timeouts t, String cluster) {
        Watch w = s.watch();
        if (s.listed().isEmpty() || s.received().isEmpty()) {
            return new Step.Wait(w);
        }
        boolean listed = s.listed().get();
        boolean listedOnce = listed || w.listedOnce();
        Instant received = s.received().get();
        if (listed || !listedOnce || Duration.between(s.record().at(), received).compareTo(t.heartbeat()) < 0) {
            return new Step.Wait(new Watch(w.lostReported(), Optional.empty(), listedOnce));
        }
        Instant since = w.unlistedSince().orElse(received);
        if (Duration.between(since, received).compareTo(t.heartbeat()) < 0 || FINISHED.contains(s.shownPhase())) {
            return new Step.Wait(new Watch(w.lostReported(), Optional.of(since), listedOnce));
        }
        return new Step.TakeBack(
                "its copy on " + cluster + " is gone (deleted there, or fenced by its agent after losing Kafka); "
                        + "re-placing at epoch " + (s.record().epoch() + 1),
                EventReason.Requeued,
                false);
    }
}
