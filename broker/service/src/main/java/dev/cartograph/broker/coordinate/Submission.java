package dev.cartograph.broker.coordinate;

import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hub objects entering and leaving the queue: a new object is held with a finalizer and queued at its epoch (the
 * {@link SchedulingCycle} after the batch attempts it, with or without Queues on the hub); a queued one whose object
 * changed is attempted again when it asks for something else now; one the cycle finds suspended before it was
 * placed holds nothing until it is resumed; and one that cannot be placed at all is failed with its reason.
 * Coordinator thread only.
 */
final class Submission {
    private static final Logger LOG = LoggerFactory.getLogger(Submission.class);

    private final PlacementStore store;
    private final DemandCache demands;
    private final Effects effects;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;

    Submission(
            PlacementStore store,
            DemandCache demands,
            Effects effects,
            Clock clock,
            Supplier<Interpreter> interpreter) {
        this.store = store;
        this.demands = demands;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
    }

    /** A new federated object (or a failed one whose spec changed): hold it and queue it. */
    void submit(HubObject object, long epoch) {
        effects.addFinalizer(object);
        object.priorityProblem().ifPresent(problem -> LOG.warn("{}: {}", object.target(), problem));
        // attempted by the scheduling cycle after this batch, in order with the rest: placed, waiting, or failed when
        // it cannot be read
        store.keep(queued(object, epoch));
    }

    /**
     * A placed object the broker has no record of ({@link PlacementTransition.Step.Adopt}): its record is made again
     * where it runs, held with its finalizer, with no reservation (its agent accounts for a copy that is there), and
     * said so on the object. Returns the record.
     */
    PlacementRecord adopt(HubObject object, PlacementTransition.Step.Adopt adopt) {
        String how = adopt.copyThere()
                ? "its copy on " + adopt.cluster() + " is kept"
                : "its hub object says it was placed on " + adopt.cluster() + "; its apply is sent there again";
        String reason = "the broker had no record of this placement (lost from its topic); " + how + " at epoch "
                + adopt.epoch();
        LOG.warn("{}: {}", object.target(), reason);
        PlacementRecord p = queued(object, adopt.epoch())
                .with(
                        Optional.of(adopt.cluster()),
                        adopt.epoch(),
                        adopt.copyThere() ? State.APPLIED : State.PLACED,
                        "",
                        Map.of(),
                        clock.instant());
        store.write(p);
        if (!object.deleting()) {
            effects.addFinalizer(object);
        }
        effects.event(object, EventReason.Recovered, reason);
        return p;
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
     * waits with, or is suspended, it is attempted again at the next cycle, against the whole fleet; when the clusters
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

    /**
     * A gang not placed yet whose hub object is suspended: it leaves the queue and holds nothing until it is resumed
     * ({@link Suspension}).
     */
    void hold(PlacementRecord p, HubObject object) {
        String reason = "suspended on the hub; it is placed when resumed";
        // a preempted gang keeps the cluster of its suspended copy
        store.write(p.with(p.cluster(), p.epoch(), State.SUSPENDED, reason, Map.of(), clock.instant()));
        store.update(p.uid(), s -> s.withShown(Optional.empty())); // shown afresh when it waits again
        effects.mark(
                object,
                Map.of(MetadataKeys.PHASE_LABEL, "Suspended", MetadataKeys.CLUSTER_LABEL, ""),
                Map.of(MetadataKeys.REASON_ANNOTATION, reason));
        effects.event(object, EventReason.Suspended, reason);
    }

    /** Fails a placement with a reason the user can act on, on the record, the hub object and an Event. */
    void fail(PlacementRecord p, HubObject object, String reason, EventReason why) {
        store.release(p.uid());
        store.update(p.uid(), s -> s.withFailedSpec(Optional.of(object.spec())).withShown(Optional.empty()));
        store.write(p.with(Optional.empty(), p.epoch(), State.FAILED, reason, Map.of(), clock.instant()));
        effects.event(object, why, reason);
        effects.mark(
                object,
                Map.of(MetadataKeys.PHASE_LABEL, "Failed", MetadataKeys.CLUSTER_LABEL, ""),
                Map.of(MetadataKeys.REASON_ANNOTATION, reason));
    }
}
