package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.GpuBudget;
import dev.cartograph.placement.Planner;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.preemption.Preemption;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns hub objects into placements: a new object is held with a finalizer, interpreted into its
 * gang and queued; the scheduling cycle after the batch ({@link QueueRetry}, with or without Queues on the hub)
 * attempts it: placed (its record, its apply and its nodes' reservation together) or waiting with the reason. One object that cannot be
 * planned — however it fails — is failed with its reason, and the rest go on. Coordinator thread only.
 */
final class Placing {
    private static final Logger LOG = LoggerFactory.getLogger(Placing.class);
    static final Comparator<PlacementRecord> QUEUE_ORDER = Comparator.comparingInt(PlacementRecord::priority)
            .reversed()
            .thenComparing(PlacementRecord::submitted)
            .thenComparing(PlacementRecord::uid);

    private final BrokerSettings settings;
    private final PlacementStore store;
    private final Fleet fleet;
    private final DemandCache demands;
    private final Forwarding forwarding;
    private final Effects effects;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;
    private final DependencyCopies dependencies;
    /** Told how each attempt ended and how long it took. */
    private final DecisionObserver observer;
    /** Each gang's queue and what it may take of each GPU model. */
    private final FairShare fairShare;

    private final Waiting waiting;
    private final Binding binding;
    private final Preempting preempting;

    Placing(
            BrokerSettings settings,
            PlacementStore store,
            Fleet fleet,
            DemandCache demands,
            Forwarding forwarding,
            StatusMirror mirror,
            Effects effects,
            Clock clock,
            Supplier<Interpreter> interpreter,
            DependencyCopies dependencies,
            DecisionObserver observer,
            FairShare fairShare) {
        this.settings = settings;
        this.store = store;
        this.fleet = fleet;
        this.demands = demands;
        this.forwarding = forwarding;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
        this.dependencies = dependencies;
        this.observer = observer;
        this.fairShare = fairShare;
        this.waiting = new Waiting(store, effects);
        this.binding = new Binding(store, fleet, forwarding, mirror, effects, waiting, clock, interpreter);
        this.preempting = new Preempting(settings, store, fleet, fairShare, forwarding, effects, clock, interpreter);
    }

    /** A new federated object (or a failed one whose spec changed): hold it and queue it. */
    void submit(HubObject object, long epoch) {
        effects.addFinalizer(object);
        object.priorityProblem().ifPresent(problem -> LOG.warn("{}: {}", object.target(), problem));
        // attempted by the scheduling cycle after this batch, in order with the rest (QueueRetry): placed, waiting, or
        // failed when it cannot be read
        store.keep(queued(object, epoch));
    }

    /** A new placement of the object, queued at {@code epoch}, not durable yet. */
    PlacementRecord queued(HubObject object, long epoch) {
        return new PlacementRecord(
                object.uid(),
                object.target(),
                Optional.empty(),
                epoch,
                State.QUEUED,
                "",
                Map.of(),
                object.priority(),
                object.submitted(),
                clock.instant());
    }

    /**
     * The hub object of a queued placement changed: when it now asks for something else than what it
     * waits with, or is suspended, it is attempted again at the next retry, against the whole fleet; when the clusters
     * that refused it refused another spec, they are forgotten.
     */
    void queuedChanged(PlacementRecord p, HubObject object) {
        if (!p.refusals().isEmpty()
                && store.forwarded(p.uid())
                        .filter(f -> !f.spec().equals(object.spec()))
                        .isPresent()) { // the user changed what the clusters refused: every cluster may be tried again
            store.write(p.withRefusals(Map.of()));
            store.queue().enter(p.uid());
            return;
        }
        Optional<DemandCache.Asked.Gang> waitsWith = store.queue().askOf(p.uid());
        if (waitsWith.isPresent() && !waitsWith.get().equals(demands.demand(object, interpreter.get()))
                || demands.needs(object, interpreter.get()).suspended()) {
            store.queue().enter(p.uid());
        }
    }

    /** What the object asks for, or why it cannot be placed (interpreted once per spec, selector and definitions). */
    DemandCache.Asked ask(HubObject object) {
        return demands.demand(object, interpreter.get());
    }

    /** Plans one queued placement; places it (durably, then forwards) or records why it waits. True when placed. */
    boolean attempt(PlacementRecord p, HubObject object, PlanningFleet planning) {
        long started = observer.started();
        DecisionObserver.Outcome outcome = decide(p, object, planning);
        observer.decided(outcome, started);
        return outcome == DecisionObserver.Outcome.PLACED;
    }

    private DecisionObserver.Outcome decide(PlacementRecord p, HubObject object, PlanningFleet planning) {
        Instant now = clock.instant();
        store.queue().attempted(p.uid());
        DemandCache.Asked asked = demands.demand(object, interpreter.get());
        if (asked instanceof DemandCache.Asked.Invalid invalid) {
            fail(p, object, invalid.reason(), invalid.why());
            return DecisionObserver.Outcome.FAILED;
        }
        DemandCache.Asked.Gang gang = (DemandCache.Asked.Gang) asked;
        if (demands.needs(object, interpreter.get()).suspended()) {
            hold(p, object);
            return DecisionObserver.Outcome.SUSPENDED;
        }
        Optional<String> missing = dependencies.missing(object);
        if (missing.isPresent()) { // not grouped with the gangs waiting for room: tried again when a dependency changes
            waiting.waits(p, object, missing::get, EventReason.MissingDependency, now);
            return DecisionObserver.Outcome.WAITING_FOR_DEPENDENCY;
        }
        PlanningFleet scope = planning.without(p.refusals().keySet());
        PlacementQueue.Group group = group(p, gang);
        GpuBudget budget = budgetOf(p);
        Decision decision = plan(gang, scope, budget);
        Optional<String> avoided = store.avoided(p.uid());
        if (avoided.isPresent() && decision.chosen().equals(avoided)) { // it could not start there: anywhere else first
            Decision elsewhere = plan(gang, scope.without(avoided.get()), budget);
            decision = elsewhere instanceof Decision.Placed ? elsewhere : decision;
        }
        store.decided(p.uid(), decision);
        if (decision instanceof Decision.Placed placed) {
            binding.land(p, object, gang, placed, List.of());
            return DecisionObserver.Outcome.PLACED;
        }
        Optional<Preemption.Plan> preemption = preempting.plan(p, gang, scope);
        if (preemption.isPresent()) { // victims and preemptor are durable together, or nothing happens
            List<PlacementRecord> victims = preempting.requeued(preemption.get());
            store.decided(p.uid(), preemption.get().placed());
            binding.land(p, object, gang, preemption.get().placed(), victims);
            preempting.preempted(preemption.get(), victims);
            return DecisionObserver.Outcome.PLACED;
        }
        store.queue().waits(p.uid(), group);
        Decision decided = decision;
        waiting.waits(p, object, () -> waiting.reason(decided, p), EventReason.Unschedulable, now);
        return DecisionObserver.Outcome.WAITING;
    }

    /**
     * A gang not placed yet whose hub object is suspended: it leaves the queue and holds nothing until it is resumed
     * ({@link Suspension}).
     */
    private void hold(PlacementRecord p, HubObject object) {
        String reason = "suspended on the hub; it is placed when resumed";
        // a preempted gang keeps the cluster of its suspended copy
        store.write(p.with(p.cluster(), p.epoch(), State.SUSPENDED, reason, Map.of(), clock.instant()));
        waiting.forget(p.uid());
        effects.mark(
                object,
                Map.of(MetadataKeys.PHASE_LABEL, "Suspended", MetadataKeys.CLUSTER_LABEL, ""),
                Map.of(MetadataKeys.REASON_ANNOTATION, reason));
        effects.event(object, EventReason.Suspended, reason);
    }

    /** Fails a placement with a reason the user can act on, on the record, the hub object and an Event. */
    void fail(PlacementRecord p, HubObject object, String reason, EventReason why) {
        store.release(p.uid());
        waiting.forget(p.uid());
        store.update(p.uid(), s -> s.withFailedSpec(Optional.of(object.spec())));
        store.write(p.with(Optional.empty(), p.epoch(), State.FAILED, reason, Map.of(), clock.instant()));
        effects.event(object, why, reason);
        effects.mark(
                object,
                Map.of(MetadataKeys.PHASE_LABEL, "Failed", MetadataKeys.CLUSTER_LABEL, ""),
                Map.of(MetadataKeys.REASON_ANNOTATION, reason));
    }

    /** What placement sees of the whole fleet now. One of the two places the planner is called from (with {@link #plan}). */
    PlanningFleet planningView() {
        return fleet.planning(clock.instant(), settings.heartbeatTimeout());
    }

    /** What the gang's pods need from the hub, and what of it goes to its member. */
    DependencyCopies dependencies() {
        return dependencies;
    }

    /** Plans a gang on some clusters of a planning view, under the broker's policy, within its queue's budget. */
    Decision plan(DemandCache.Asked.Gang gang, PlanningFleet clusters, GpuBudget budget) {
        return Planner.plan(gang.pods(), gang.clusterSelector(), clusters, settings.policy(), budget, gang.topology());
    }

    /** The group a queued placement waits in: what it asks, in its queue. */
    PlacementQueue.Group group(PlacementRecord p, DemandCache.Asked.Gang gang) {
        return new PlacementQueue.Group(fairShare.queueOf(p.target().namespace()), gang);
    }

    /** What the placement's gang may take now, in its queue. */
    GpuBudget budgetOf(PlacementRecord p) {
        return fairShare.budget(p.target().namespace());
    }

    /** What one more gang of the queue may take now. */
    GpuBudget budget(String queue) {
        return fairShare.on() ? fairShare.quotas().budget(queue) : GpuBudget.NONE;
    }

    /** Preempted gangs whose copy did not stop: their suspend is sent again ({@link Preempting}). */
    void resendSuspends() {
        preempting.resendUnanswered(clock.instant());
    }
}
