package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.PlacementState.Watch;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the clock decides: cluster readiness, commands nobody answered (sent again), and clusters
 * lost past the failover timeout, whose gangs that never started are re-placed at a higher epoch
 * (the re-queued record is durable together with the Delete that fences the old copy; its nodes are released).
 * Coordinator thread only.
 */
final class Failover {
    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);
    private static final Set<String> FINISHED = Set.of("Completed", "Failed");

    private final BrokerSettings settings;
    private final PlacementStore store;
    private final Fleet fleet;
    private final Forwarding forwarding;
    private final StatusMirror mirror;
    private final Effects effects;
    private final Clock clock;
    private final Map<String, Boolean> readiness = new HashMap<>();

    /**
     * What a cluster's agent has answered, by this broker's clock: when it last answered anything, and the order of the
     * newest command it answered (of those this instance sent). Commands reach an agent in the order they were
     * committed, so an agent that answered a command sent after ours has passed ours.
     */
    private record Answers(Instant heard, long passed) {}

    private final Map<String, Answers> answers = new HashMap<>();

    Failover(
            BrokerSettings settings,
            PlacementStore store,
            Fleet fleet,
            Forwarding forwarding,
            StatusMirror mirror,
            Effects effects,
            Clock clock) {
        this.settings = settings;
        this.store = store;
        this.fleet = fleet;
        this.forwarding = forwarding;
        this.mirror = mirror;
        this.effects = effects;
        this.clock = clock;
    }

    /**
     * One tick while active. Returns the clusters whose capacity changed (readiness flipped, or a gang
     * was taken back from them); a gang taken back is queued again, and tried as new.
     *
     * @param activeSince when this instance became active: agents get one failover timeout from then
     *                    to be heard from before any cluster counts as lost
     */
    Set<String> tick(Instant activeSince) {
        Instant now = clock.instant();
        Set<String> changed = new HashSet<>();
        for (String cluster : fleet.clusters()) {
            boolean ready = fleet.ready(cluster, now, settings.heartbeatTimeout());
            Boolean before = readiness.put(cluster, ready);
            if (before == null || before != ready) {
                changed.add(cluster);
                LOG.info("cluster {} is {}", cluster, ready ? "ready" : "not ready");
            }
        }
        resendUnanswered(now);
        if (Duration.between(activeSince, now).compareTo(settings.failoverTimeout()) < 0) {
            return changed;
        }
        Map<String, Set<String>> listedNow = new HashMap<>();
        for (String cluster : fleet.clusters()) {
            listedNow.put(
                    cluster,
                    fleet.summary(cluster).orElseThrow().placements().stream()
                            .map(PlacementReport::placementId)
                            .collect(java.util.stream.Collectors.toSet()));
        }
        for (PlacementRecord p : List.copyOf(store.placements())) {
            if ((p.state() == State.PLACED || p.state() == State.APPLIED)
                    && p.cluster().isPresent()) {
                String cluster = p.cluster().get();
                boolean taken;
                if (!fleet.ready(cluster, now, settings.failoverTimeout())) {
                    taken = lost(p, cluster, now);
                } else {
                    taken = p.state() == State.APPLIED && (stuck(p, cluster, now) || gone(p, cluster, listedNow, now));
                }
                if (taken) {
                    changed.add(cluster);
                }
            }
        }
        return changed;
    }

    private boolean lost(PlacementRecord p, String cluster, Instant now) {
        Optional<HubObject> object = store.object(p.uid());
        Optional<WorkloadSummary> member = store.member(p);
        boolean started = member.isPresent() && member.get().started();
        if (started && !settings.replaceRunning()) {
            Watch watch = watch(p.uid());
            if (!watch.lostReported().equals(Optional.of(p.epoch()))) { // once per placement and epoch
                watched(p.uid(), new Watch(Optional.of(p.epoch()), watch.unlistedSince(), watch.listedOnce()));
                object.ifPresent(o -> effects.event(
                        o,
                        EventReason.ClusterLost,
                        cluster + " has been silent longer than "
                                + settings.failoverTimeout() + "; the gang was "
                                + member.get().phase()
                                + " there and stays placed (replace-running is off)"));
            }
            return false;
        }
        long epoch = p.epoch() + 1;
        return takeBack(
                p,
                cluster,
                cluster + " lost (silent longer than " + settings.failoverTimeout() + "); re-placing at epoch " + epoch,
                EventReason.ClusterLost,
                now);
    }

    /**
     * A gang its member has not started within the start timeout after applying it (some of its pods
     * still unbound there, e.g. the member's scheduler put other pods where the broker counted on room)
     * is taken back and placed again, not on that cluster next time.
     */
    private boolean stuck(PlacementRecord p, String cluster, Instant now) {
        if (Duration.between(p.at(), now).compareTo(settings.limits().startTimeout()) <= 0) {
            return false;
        }
        Optional<PlacementReport> report = fleet.summary(cluster)
                .flatMap(s -> s.placements().stream()
                        .filter(r -> r.placementId().equals(p.uid()) && r.epoch() == p.epoch())
                        .findFirst());
        if (report.isEmpty() || report.get().pendingPods() == 0) {
            return false;
        }
        long epoch = p.epoch() + 1;
        String reason = cluster + " did not start it within "
                + settings.limits().startTimeout() + " (" + report.get().pendingPods()
                + " pods still unscheduled there); re-placing at epoch " + epoch + " on another cluster";
        if (takeBack(p, cluster, reason, EventReason.Requeued, now)) {
            store.avoid(p.uid(), cluster);
            return true;
        }
        return false;
    }

    /**
     * A gang applied on a cluster whose summaries have stopped listing its copy for a heartbeat timeout
     * (the copy was deleted on the member, or fenced by an agent cut off from Kafka, see ADR 0005) is
     * placed again — unless it had finished there: a Completed or Failed gang is not run again.
     */
    private boolean gone(PlacementRecord p, String cluster, Map<String, Set<String>> listedNow, Instant now) {
        Instant received = fleet.received(cluster).orElse(null);
        Set<String> listing = listedNow.get(cluster);
        if (received == null || listing == null) {
            return false;
        }
        boolean listed = listing.contains(p.uid());
        Watch watch = watch(p.uid());
        boolean listedOnce = listed || watch.listedOnce();
        // an agent lists a copy once its cache has it: only summaries received a heartbeat timeout after the apply
        // count
        if (listed || !listedOnce || Duration.between(p.at(), received).compareTo(settings.heartbeatTimeout()) < 0) {
            watched(p.uid(), new Watch(watch.lostReported(), Optional.empty(), listedOnce));
            return false;
        }
        Instant since = watch.unlistedSince().orElse(received);
        watched(p.uid(), new Watch(watch.lostReported(), Optional.of(since), listedOnce));
        String shown = store.object(p.uid()).map(HubObject::shownPhase).orElse("");
        if (Duration.between(since, received).compareTo(settings.heartbeatTimeout()) < 0 || FINISHED.contains(shown)) {
            return false;
        }
        watched(p.uid(), new Watch(watch.lostReported(), Optional.empty(), listedOnce));
        return takeBack(
                p,
                cluster,
                "its copy on " + cluster + " is gone (deleted there, or fenced by its agent after losing Kafka); "
                        + "re-placing at epoch " + (p.epoch() + 1),
                EventReason.Requeued,
                now);
    }

    /** The cluster's agent answered a command; {@code order} is that command's order, when this instance sent it. */
    void answered(String cluster, Optional<Long> order) {
        Answers before = answers.get(cluster);
        long passed = Math.max(before == null ? 0 : before.passed(), order.orElse(0L));
        answers.put(cluster, new Answers(clock.instant(), passed));
    }

    /**
     * Whether the cluster's agent is working through its commands and has not reached one sent at {@code sent} yet:
     * it answered something within the heartbeat timeout, and nothing sent after ours. Sending ours again would only
     * queue a second copy behind the first.
     */
    private boolean working(String cluster, Optional<PlacementState.Sent> sent, Instant now) {
        Answers a = answers.get(cluster);
        return a != null
                && sent.isPresent() // sent by another instance: no telling where it stands
                && Duration.between(a.heard(), now).compareTo(settings.heartbeatTimeout()) <= 0
                && a.passed() < sent.get().order();
    }

    /**
     * A member refused the gang's copy (admission, a missing CRD, quota, a name taken: its reason says which). The
     * gang is queued again at the next epoch with that cluster left out and its reason kept, so it goes to the next
     * cluster that fits; once every candidate refused, it waits with all their reasons (until its spec changes).
     * Returns the cluster whose capacity it gave back, if it was taken back.
     */
    Optional<String> refused(PlacementRecord p, String cluster, String reason) {
        Map<String, String> refusals = new HashMap<>(p.refusals());
        refusals.put(cluster, reason);
        String why =
                cluster + " refused it (" + reason + "); placing it on another cluster, at epoch " + (p.epoch() + 1);
        return takeBack(p.withRefusals(refusals), cluster, why, EventReason.Refused, clock.instant())
                ? Optional.of(cluster)
                : Optional.empty();
    }

    /** Re-queues a placement at the next epoch (durably first), then fences the old copy and frees its nodes. */
    private boolean takeBack(PlacementRecord p, String cluster, String reason, EventReason why, Instant now) {
        long epoch = p.epoch() + 1;
        PlacementRecord requeued = p.with(Optional.empty(), epoch, State.QUEUED, reason, Map.of(), now);
        store.write(requeued);
        forwarding.delete(requeued, cluster); // fencing: the old agent deletes its copy (now, or when it returns)
        store.release(p.uid());
        mirror.forget(p.uid());
        watched(p.uid(), Watch.NONE); // its next copy is watched afresh
        LOG.info("{}: {}", p.target(), reason);
        store.object(p.uid()).ifPresent(o -> {
            effects.event(o, why, reason);
            effects.mark(
                    o,
                    Map.of(MetadataKeys.PHASE_LABEL, "Queued", MetadataKeys.CLUSTER_LABEL, ""),
                    Map.of(
                            MetadataKeys.REASON_ANNOTATION,
                            reason,
                            MetadataKeys.EPOCH_ANNOTATION,
                            Long.toString(epoch)));
        });
        return true;
    }

    /**
     * An apply or delete the agent has not answered within the heartbeat timeout, while its cluster is
     * ready, is sent again (its answer was lost, or given while another instance led); the agent carries out both
     * idempotently. Not while the agent is still working through the commands before it ({@link #working}): a burst
     * is answered in order, and sending it again would only add to the agent's queue.
     */
    private void resendUnanswered(Instant now) {
        for (PlacementRecord p : List.copyOf(store.placements())) {
            if ((p.state() != State.PLACED && p.state() != State.DELETING)
                    || p.cluster().isEmpty()) {
                continue;
            }
            String cluster = p.cluster().get();
            Optional<PlacementState.Sent> sent =
                    store.state(p.uid()).flatMap(PlacementState::sent).filter(s -> s.epoch() == p.epoch());
            if (Duration.between(store.lastSent(p), now).compareTo(settings.heartbeatTimeout()) <= 0
                    || !fleet.ready(cluster, now, settings.heartbeatTimeout())
                    || working(cluster, sent, now)) {
                continue;
            }
            Optional<HubObject> object = store.object(p.uid());
            if (p.state() == State.DELETING) {
                LOG.info(
                        "{}: no answer from {} to the delete at epoch {}; sending it again",
                        p.target(),
                        cluster,
                        p.epoch());
                forwarding.delete(p, cluster);
            } else if (object.isPresent() && !object.get().deleting()) {
                Optional<PlacementState.Forwarded> went = store.forwarded(p.uid());
                if (went.isPresent() && !went.get().spec().equals(object.get().spec())) {
                    continue; // changed since: the change is checked and sent on its own
                }
                LOG.info("{}: no answer from {} for epoch {}; sending the apply again", p.target(), cluster, p.epoch());
                forwarding.apply(p, object.get(), went.flatMap(PlacementState.Forwarded::asked));
            }
        }
    }

    private Watch watch(String uid) {
        return store.state(uid).map(PlacementState::watch).orElse(Watch.NONE);
    }

    private void watched(String uid, Watch watch) {
        store.update(uid, s -> s.watch().equals(watch) ? s : s.withWatch(watch));
    }
}
