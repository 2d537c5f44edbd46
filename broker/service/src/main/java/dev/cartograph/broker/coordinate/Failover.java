package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.PlacementState.Watch;
import dev.cartograph.broker.coordinate.PlacementTransition.Seen;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.PlacementReport;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the clock observes and does ({@link PlacementTransition} decides, pure): cluster readiness, what is seen of
 * each copy at a tick, commands nobody answered (sent again), running gangs on a lost cluster (reported), and gangs
 * taken back from their cluster (lost, not started, copy gone, or refused by the member). A gang taken back is
 * queued at the next epoch with the Delete that fences its old copy, in the same batch; its nodes are released.
 * Coordinator thread only.
 */
final class Failover {
    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);

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

    /** The clusters whose readiness flipped since the last tick (the queue's gangs are tried there again). */
    Set<String> readiness() {
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
        return changed;
    }

    /** A placement with a copy on a cluster, and what a tick observes of it. */
    record Ticked(PlacementRecord record, PlacementTransition.Observed.Tick tick) {}

    /**
     * What the clock observes now of every placement that has a copy on a cluster (placed, applied, or being deleted),
     * for {@link PlacementTransition}.
     *
     * @param activeSince when this instance became active: agents get one failover timeout from then
     *                    to be heard from before any cluster counts as lost
     */
    List<Ticked> ticks(Instant activeSince) {
        Instant now = clock.instant();
        Map<String, Map<String, PlacementReport>> reported = new HashMap<>(); // per cluster, once a tick
        for (String cluster : fleet.clusters()) {
            Map<String, PlacementReport> byUid = new HashMap<>();
            fleet.summary(cluster).orElseThrow().placements().forEach(r -> byUid.put(r.placementId(), r));
            reported.put(cluster, byUid);
        }
        PlacementTransition.Timeouts timeouts = new PlacementTransition.Timeouts(
                settings.heartbeatTimeout(),
                settings.failoverTimeout(),
                settings.limits().startTimeout(),
                settings.replaceRunning());
        Duration sinceActive = activeSince.isAfter(now) ? Duration.ZERO : Duration.between(activeSince, now);
        List<Ticked> out = new ArrayList<>();
        for (PlacementRecord p : store.placements()) {
            if (p.cluster().isEmpty()
                    || p.state() != State.PLACED && p.state() != State.APPLIED && p.state() != State.DELETING) {
                continue;
            }
            String cluster = p.cluster().get();
            Seen seen = seen(p, cluster, Optional.ofNullable(reported.get(cluster)), sinceActive, now);
            out.add(new Ticked(p, new PlacementTransition.Observed.Tick(seen, timeouts)));
        }
        return out;
    }

    /** What the broker knows now of a placement with a copy on {@code cluster}, for {@link PlacementTransition}. */
    private Seen seen(
            PlacementRecord p,
            String cluster,
            Optional<Map<String, PlacementReport>> reported,
            Duration sinceActive,
            Instant now) {
        PlacementState state = store.state(p.uid()).orElse(PlacementState.of(p.uid()));
        Optional<HubObject> object = state.object();
        Optional<WorkloadSummary> member = store.member(p);
        Optional<PlacementReport> report = reported.map(r -> r.get(p.uid())).filter(r -> r.epoch() == p.epoch());
        PlacementRecord.Target t = p.target();
        boolean kindWatched = fleet.summary(cluster)
                .map(s -> s.unwatched().stream()
                        .noneMatch(u -> u.kind().equals(t.kind())
                                && GroupVersionKind.of(u.apiVersion(), u.kind())
                                        .group()
                                        .equals(GroupVersionKind.of(t.apiVersion(), t.kind())
                                                .group())))
                .orElse(true);
        boolean resendable = object.isPresent()
                && !object.get().deleting()
                && state.forwarded()
                        .map(went -> went.spec().equals(object.get().spec()))
                        .orElse(true); // changed since it was sent: the change is checked and sent on its own
        return new Seen(
                state.watch(),
                state.lastSent(p),
                working(cluster, state.sent().filter(sent -> sent.epoch() == p.epoch()), now),
                fleet.ready(cluster, now, settings.heartbeatTimeout()),
                fleet.ready(cluster, now, settings.failoverTimeout()),
                member.map(WorkloadSummary::started).orElse(false),
                member.map(WorkloadSummary::phase).orElse(""),
                report.map(r -> (long) r.pendingPods()),
                reported.map(r -> r.containsKey(p.uid())),
                fleet.received(cluster),
                kindWatched,
                object.map(HubObject::shownPhase).orElse(""),
                resendable,
                sinceActive,
                now);
    }

    /** Its last command went unanswered: sent again at the same epoch (the agent is idempotent). */
    void resend(PlacementRecord p) {
        String cluster = p.cluster().orElseThrow();
        if (p.state() == State.DELETING) {
            LOG.info(
                    "{}: no answer from {} to the delete at epoch {}; sending it again",
                    p.target(),
                    cluster,
                    p.epoch());
            forwarding.delete(p, cluster);
        } else {
            LOG.info("{}: no answer from {} for epoch {}; sending the apply again", p.target(), cluster, p.epoch());
            forwarding.apply(
                    p,
                    store.object(p.uid()).orElseThrow(),
                    store.forwarded(p.uid()).flatMap(PlacementState.Forwarded::asked));
        }
    }

    /** Its running copy is on a lost cluster and stays there: the hub object says so. */
    void reportLost(PlacementRecord p, String message) {
        store.object(p.uid()).ifPresent(o -> effects.event(o, EventReason.ClusterLost, message));
    }

    /**
     * Takes the gang back from its cluster: queued again at the next epoch, that copy fenced, its nodes released;
     * {@code avoid}: its next placement goes elsewhere first.
     */
    void takeBack(PlacementRecord p, String reason, EventReason why, boolean avoid) {
        String cluster = p.cluster().orElseThrow();
        takeBack(p, cluster, reason, why, clock.instant());
        if (avoid) {
            store.avoid(p.uid(), cluster);
        }
    }

    /** The cluster's agent answered a command; {@code order} is that command's order, when this instance sent it. */
    void answered(String cluster, Optional<Long> order) {
        Answers before = answers.get(cluster);
        long passed = Math.max(before == null ? 0 : before.passed(), order.orElse(0L));
        answers.put(cluster, new Answers(clock.instant(), passed));
    }

    /**
     * Whether the cluster's agent is still working through its commands and has not reached this one yet: it answered
     * something within the heartbeat timeout, and nothing sent after this one. An agent that has answered nothing to
     * this instance yet gets a failover timeout for its first answer (its first applies of a burst may need the
     * member's discovery and informers). Sending a command again while the agent works towards it would only queue
     * a second copy behind the first.
     */
    private boolean working(String cluster, Optional<PlacementState.Sent> sent, Instant now) {
        if (sent.isEmpty()) {
            return false; // sent by another instance: no telling where it stands
        }
        Answers a = answers.get(cluster);
        if (a == null) {
            return Duration.between(sent.get().at(), now).compareTo(settings.failoverTimeout()) <= 0;
        }
        return Duration.between(a.heard(), now).compareTo(settings.heartbeatTimeout()) <= 0
                && a.passed() < sent.get().order();
    }

    /**
     * A member refused the gang's copy (admission, a missing CRD, quota, a name taken: its reason says which). The
     * gang is queued again at the next epoch with that cluster left out and its reason kept, so it goes to the next
     * cluster that fits; once every candidate refused, it waits with all their reasons (until its spec changes).
     */
    void refused(PlacementRecord p, String cluster, String reason) {
        Map<String, String> refusals = new HashMap<>(p.refusals());
        refusals.put(cluster, reason);
        String why =
                cluster + " refused it (" + reason + "); placing it on another cluster, at epoch " + (p.epoch() + 1);
        takeBack(p.withRefusals(refusals), cluster, why, EventReason.Refused, clock.instant());
    }

    /** Re-queues a placement at the next epoch (durably first), then fences the old copy and frees its nodes. */
    private void takeBack(PlacementRecord p, String cluster, String reason, EventReason why, Instant now) {
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
    }

    /** What failover remembers of the placement's copy from now on. */
    void watched(String uid, Watch watch) {
        store.update(uid, s -> s.watch().equals(watch) ? s : s.withWatch(watch));
    }
}
