package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.PlacementTransition.Observed;
import dev.cartograph.broker.coordinate.PlacementTransition.Step;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.broker.usage.UsageAccounting;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The centre of the coordinator's parts: it takes each input in, lets {@link PlacementTransition} decide what it
 * does to the placement it concerns, and carries the step out through the one part that does it — {@link Submission},
 * {@link Updates}, {@link Suspension}, {@link Deletion}, {@link Failover}; what agents report goes to
 * {@link AgentReports}, and what is queued is placed by the {@link SchedulingCycle}. The parts do not call each
 * other's steps: they share the {@link PlacementStore} (what is known of each placement), {@link Effects} (what goes
 * out at the end of the batch) and {@link Forwarding} (the commands). The {@link Coordinator} owns the thread, the
 * batch and the published view. Coordinator thread only.
 */
final class PlacementMachine {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementMachine.class);

    final Fleet fleet = new Fleet();
    /** The coordinator's thread, enforced on the state it owns. */
    final WriterThread thread = new WriterThread();

    final PlacementStore store;
    final Effects effects;
    final FairShare fairShare;
    final Leadership leadership;
    final Quarantine quarantine;
    final SchedulingCycle cycle;
    private final Submission submission;
    private final Updates updates;
    private final Suspension suspension;
    private final Deletion deletion;
    private final Failover failover;
    private final Preempting preempting;
    private final DemandCache demands;
    private final AgentReports reports;
    private final HubInventory inventory = new HubInventory();
    private final LostTopic lostTopic;
    private final Clock clock;
    private final PriorityClasses priorityClasses;
    private Interpreter interpreter;
    private UsageAccounting usage = UsageAccounting.off();
    /** Placements found placed without a record and adopted (an alarm: records were lost). */
    private long recovered;

    /** Placements whose batch was undone: handled again at the next tick. */
    private final Set<String> redo = new LinkedHashSet<>();

    PlacementMachine(
            BrokerSettings settings,
            Interpreter interpreter,
            Outbox outbox,
            Hub hub,
            Clock clock,
            PriorityClasses priorityClasses,
            HubDependencies hubDependencies,
            DecisionObserver observer) {
        this.interpreter = interpreter;
        this.clock = clock;
        this.priorityClasses = priorityClasses;
        java.util.function.Supplier<Interpreter> definitions = () -> this.interpreter;
        this.fairShare = new FairShare(fleet, clock, settings.heartbeatTimeout());
        this.effects = new Effects(outbox, hub, this::active, this::fenced, thread);
        this.store = new PlacementStore(thread, effects, fleet, fairShare);
        this.lostTopic = new LostTopic(store, effects);
        this.leadership = new Leadership(!settings.leaderElection(), outbox, effects, clock, this::becameActive);
        this.demands = new DemandCache(settings.maxPodsPerGang(), settings.podSecurity(), store);
        DependencyCopies copies = new DependencyCopies(hubDependencies, demands, definitions);
        Forwarding forwarding = new Forwarding(store, effects, clock, copies, definitions);
        StatusMirror mirror = new StatusMirror(store, effects, clock);
        this.submission = new Submission(store, demands, effects, clock, definitions);
        this.failover = new Failover(settings, store, fleet, forwarding, mirror, effects, clock);
        this.deletion = new Deletion(settings, store, fleet, forwarding, effects, clock, this::forget);
        this.suspension = new Suspension(store, demands, forwarding, submission, effects, clock, definitions);
        this.updates = new Updates(store, demands, forwarding, mirror, effects, clock, definitions);
        this.reports =
                new AgentReports(settings, fleet, store, new Fencing(store, effects, clock), inventory, mirror, clock);
        this.quarantine = new Quarantine(store, submission, effects);
        this.preempting = new Preempting(settings, store, fleet, fairShare, forwarding, effects, clock, definitions);
        this.cycle = new SchedulingCycle(
                settings,
                store,
                fleet,
                fairShare,
                demands,
                copies,
                submission,
                updates,
                new Waiting(store, effects),
                preempting,
                new Binding(store, fleet, forwarding, effects, clock, definitions),
                quarantine,
                observer,
                clock,
                definitions);
    }

    /** Whether this instance may act (it leads and has caught up). */
    private boolean active() {
        return leadership.active();
    }

    /** A newer leader refused this one's write. */
    private void fenced() {
        leadership.fenced();
    }

    /** Placements this instance adopted because their records were lost ({@link Step.Adopt}). */
    long recovered() {
        return recovered;
    }

    /** Times this instance found its placements topic lost while it ran ({@link Input.PlacementsLost}). */
    long placementsLost() {
        return lostTopic.count();
    }

    /** Counts GPU time while this instance is active, at every tick (ADR 0006). */
    void account(UsageAccounting usage) {
        this.usage = usage;
    }

    UsageAccounting usage() {
        return usage;
    }

    /** One input, taken in: what it observes is kept, and the step it leads to carried out. */
    void handle(Input input) {
        if (input instanceof Input.Cluster c) {
            reports.cluster(c.summary(), c.changedNodes(), leadership.caughtUp())
                    .ifPresent(cluster -> {
                        cycle.changed(cluster);
                        fairShare.capacityChanged();
                    });
        } else if (input instanceof Input.Workload w) {
            reports.workload(w.key(), w.summary());
        } else if (input instanceof Input.Result r) {
            answered(r.result());
        } else if (input instanceof Input.DependencyChanged d) {
            if (leadership.active()) {
                updates.dependencyChanged(d);
            }
        } else if (input instanceof Input.Placement p) {
            if (!leadership.active()) {
                store.replayed(
                        p.uid(), p.record()); // while active, this instance wrote it: what it reads back is its own
            }
        } else if (input instanceof Input.CaughtUp) {
            LOG.info(
                    "caught up with every topic: {} placements, {} clusters",
                    store.placements().size(),
                    fleet.clusters().size());
            leadership.caughtUpWithStart();
        } else if (input instanceof Input.Marked m) {
            leadership.marked(m.id());
        } else if (input instanceof Input.HubChanged h) {
            HubObject.parse(h.object(), priorityClasses, clock.instant()).ifPresent(this::hubChanged);
        } else if (input instanceof Input.HubDeleted h) {
            HubObject.parse(h.object(), priorityClasses, clock.instant()).ifPresent(this::hubDeleted);
        } else if (input instanceof Input.HubListed l) {
            hubListed(l.kinds());
        } else if (input instanceof Input.PlacementsLost l) {
            lostTopic.lost(l.reason(), leadership.active());
        } else if (input instanceof Input.Leading l) {
            leadership.changed(l.leading(), l.term());
        } else if (input instanceof Input.Definitions d) {
            interpreter = Interpreter.of(d.definitions());
            LOG.info("definitions changed: {} kinds", d.definitions().size());
            cycle.changedEverywhere(); // queued gangs are interpreted again, and tried on every cluster
        } else if (input instanceof Input.Queues q) {
            fairShare.queues(q, store);
            cycle.changedEverywhere(); // every gang's queue, budget and turn may have changed
        } else if (input instanceof Input.Tick) {
            tick();
        } else if (input instanceof Input.Call c) {
            c.action().run();
        }
    }

    /** A federated hub object was added or changed (or is offered again): remembered, and acted on while active. */
    private void hubChanged(HubObject object) {
        store.object(object);
        if (!leadership.active()) {
            return;
        }
        Optional<PlacementRecord> p = store.placement(object.uid());
        Optional<com.fasterxml.jackson.databind.JsonNode> failedSpec =
                store.state(object.uid()).flatMap(PlacementState::failedSpec);
        DemandCache.Asked asked = demands.demand(object, interpreter); // once per spec: the cycle reads it again
        boolean suspends = asked instanceof DemandCache.Asked.Gang
                && demands.needs(object, interpreter).suspended();
        Step step = PlacementTransition.next(
                p,
                new Observed.HubChanged(
                        object, failedSpec, suspends, p.isEmpty() ? reports.copiesOf(object) : java.util.Map.of()));
        if (step instanceof Step.Adopt adopt) {
            p = Optional.of(submission.adopt(object, adopt));
            recovered++;
            step = PlacementTransition.next(p, new Observed.HubChanged(object, failedSpec, suspends));
        }
        if (step == Step.UPDATE
                || step == Step.SUSPEND
                || step == Step.REQUEUE_IF_CHANGED
                || step == Step.SUSPENDED_CHANGED
                || step == Step.HOLD) {
            effects.addFinalizer(object); // level-triggered: a finalizer lost on the hub is put back (submit holds it)
        }
        if (step instanceof Step.Submit submit) {
            submission.submit(object, submit.epoch()); // new, or failed and changed: a copy left anywhere is fenced
        } else if (step == Step.DELETE) {
            deletion.delete(object, p);
        } else if (step == Step.UPDATE) {
            updates.placed(p.get(), object);
        } else if (step == Step.SUSPEND) {
            suspension.suspend(p.get(), object, asked);
        } else if (step == Step.REQUEUE_IF_CHANGED) {
            submission.queuedChanged(p.get(), object);
        } else if (step == Step.SUSPENDED_CHANGED) {
            suspension.changed(p.get(), object);
        } else if (step == Step.HOLD && p.get().state() == State.FAILED && failedSpec.isEmpty()) {
            // failed before this instance saw it: the spec it has now is the one that failed
            store.update(object.uid(), s -> s.withFailedSpec(Optional.of(object.spec())));
        }
    }

    /** A federated hub object is gone from the hub. */
    private void hubDeleted(HubObject object) {
        if (leadership.active()
                && PlacementTransition.next(store.placement(object.uid()), new Observed.HubGone()) == Step.DELETE) {
            deletion.delete(object, store.placement(object.uid())); // gone without our finalizer (forced)
        }
        store.objectGone(object.uid());
    }

    /**
     * The hub was listed again ({@link HubInventory}): placements whose hub object has been missing from two listings
     * are deleted as if it had been deleted before the broker's eyes (copy first, then the record).
     */
    private void hubListed(java.util.Set<String> kinds) {
        List<PlacementRecord> unseen = store.placements().stream()
                .filter(p -> store.object(p.uid()).isEmpty())
                .toList();
        for (PlacementRecord p : inventory.sweep(kinds, unseen)) {
            if (leadership.active()
                    && PlacementTransition.next(Optional.of(p), new Observed.HubGone()) == Step.DELETE) {
                deletion.orphaned(p);
            }
        }
    }

    /** An agent answered a command: only an answer to the placement's current epoch and cluster counts. */
    private void answered(CommandResult r) {
        if (!leadership.active()) {
            return;
        }
        // the agent is alive, and this is where it stands in its commands
        failover.answered(
                r.cluster(),
                store.state(r.placementId())
                        .flatMap(PlacementState::sent)
                        .filter(s -> s.epoch() == r.epoch())
                        .map(PlacementState.Sent::order));
        Optional<PlacementRecord> p = store.placement(r.placementId());
        Optional<HubObject> object = store.object(r.placementId());
        Step step = PlacementTransition.next(
                p,
                new Observed.Answer(
                        r, object.isPresent(), p.flatMap(store::member).isPresent()));
        if (step == Step.APPLIED) {
            store.write(p.get().with(State.APPLIED, "", clock.instant()));
            object.ifPresent(o -> effects.event(
                    o, EventReason.Forwarded, "created on " + r.cluster() + " by its agent (epoch " + r.epoch() + ")"));
        } else if (step == Step.CHANGE_REFUSED) {
            updates.changeRefused(p.get(), object.get(), r.reason());
        } else if (step == Step.REFUSED) {
            failover.refused(p.get(), r.cluster(), r.reason());
        } else if (step == Step.DELETED) {
            deletion.finish(p.get(), object);
        } else {
            LOG.debug(
                    "{} answered {} for {} epoch {}: nothing to do (not its current command, or not final)",
                    r.cluster(),
                    r.outcome(),
                    r.placementId(),
                    r.epoch());
        }
    }

    /** The clock's tick: what waits on time is done (while active), or this instance tries to become active. */
    private void tick() {
        usage.tick(clock.instant(), leadership.active(), () -> fairShare.holdings(store));
        if (!leadership.active()) {
            leadership.tryActivate();
            return;
        }
        handleAgain();
        failover.readiness().forEach(cycle::changed);
        for (Failover.Ticked t : failover.ticks(leadership.activeSince())) {
            PlacementRecord p = t.record();
            Step step = PlacementTransition.next(Optional.of(p), t.tick());
            if (step instanceof Step.TakeBack back) {
                failover.takeBack(
                        p, back.reason(), back.why(), back.avoid()); // its nodes released: the store says where
            } else if (step instanceof Step.Resend resend) {
                failover.watched(p.uid(), resend.watch());
                failover.resend(p);
            } else if (step instanceof Step.ReportLost lost) {
                failover.watched(p.uid(), lost.watch());
                failover.reportLost(p, lost.message());
            } else if (step instanceof Step.Wait wait) {
                failover.watched(p.uid(), wait.watch());
            }
        }
        preempting.resendUnanswered(clock.instant());
        deletion.retryWhereNotReady();
        reports.fenceStale();
        cycle.tick();
    }

    /** The placements a batch touched, when it was undone: handled again at the next tick. */
    void undone(Set<String> uids) {
        redo.addAll(uids);
    }

    /** Level-triggered: their hub objects are offered again; the clock's work re-reads the rest. */
    private void handleAgain() {
        List<String> uids = List.copyOf(redo);
        redo.clear();
        for (String uid : uids) {
            store.object(uid).ifPresent(object -> {
                Input again = new Input.HubChanged(object.raw());
                quarantine.guard(again, () -> handle(again));
            });
        }
    }

    /**
     * What this instance does once it leads and has caught up with every topic: hold again what the recorded
     * placements reserved, act on every hub object (adopting those placed without a record, so their copies are not
     * taken for strays), match member copies read before their placement records, and try the whole queue.
     */
    private void becameActive() {
        lostTopic.activated(); // the placements topic was lost while this instance stood by
        fairShare.recount(store); // the fleet knows every cluster's nodes now, so each GPU's model
        store.holdRecordedReservations();
        for (HubObject object : store.objects()) {
            hubChanged(object); // acted on as this instance now leads; one placed without a record is adopted
        }
        for (WorkloadSummary s : List.copyOf(store.copies())) {
            reports.copy(s, Optional.empty()); // summaries read before their placement records: matched now
        }
        cycle.changedEverywhere();
    }

    /** Forgets everything about a placement (its hub object is gone, or is about to be). */
    private void forget(String uid) {
        store.forget(uid);
        store.release(uid);
    }
}
