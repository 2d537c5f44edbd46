package dev.cartograph.broker.coordinate;

import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Suspend and resume from the hub, through the definition's suspend actions. Suspending a placed gang sends the
 * change to its copy at the next epoch (the member's controller suspends it and its pods go) and releases at once
 * what the broker held for it: the placement stays on its cluster as {@link State#SUSPENDED}, holding nothing.
 * Resuming queues it again, keeping its cluster: the {@link SchedulingCycle} resumes its copy there when its pods fit
 * there (at the next epoch, its nodes reserved), or places it anew where they fit, and its suspended copy goes.
 * Coordinator thread only.
 */
final class Suspension {
    private final PlacementStore store;
    private final DemandCache demands;
    private final Forwarding forwarding;
    private final Submission submission;
    private final Effects effects;
    private final java.time.Clock clock;
    private final Supplier<Interpreter> interpreter;

    Suspension(
            PlacementStore store,
            DemandCache demands,
            Forwarding forwarding,
            Submission submission,
            Effects effects,
            java.time.Clock clock,
            Supplier<Interpreter> interpreter) {
        this.store = store;
        this.demands = demands;
        this.forwarding = forwarding;
        this.submission = submission;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
    }

    /** Whether the hub object is suspended now. */
    boolean suspended(HubObject object) {
        return demands.needs(object, interpreter.get()).suspended();
    }

    /** A placed gang's hub object was suspended (by the user, or while no broker was leading). */
    void suspend(PlacementRecord p, HubObject object, DemandCache.Asked asked) {
        String cluster = p.cluster().orElseThrow();
        long epoch = p.epoch() + 1;
        String reason = "suspended on the hub; its copy on " + cluster
                + " is suspended there and what it held is free for other gangs";
        PlacementRecord next = p.with(p.cluster(), epoch, State.SUSPENDED, reason, Map.of(), clock.instant());
        store.write(next);
        store.update(p.uid(), s -> s.withRefusedSpec(Optional.empty()));
        store.release(p.uid());
        forwarding.apply(next, object, Optional.of(asked));
        effects.mark(
                object,
                Map.of(MetadataKeys.PHASE_LABEL, "Suspended", MetadataKeys.CLUSTER_LABEL, cluster),
                Map.of(MetadataKeys.REASON_ANNOTATION, reason, MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch)));
        effects.event(object, EventReason.Suspended, reason);
    }

    /**
     * A suspended placement's hub object changed: still suspended, a changed spec goes to its copy as it is (it runs
     * no pods); resumed, it is planned again.
     */
    void changed(PlacementRecord p, HubObject object) {
        DemandCache.Asked asked = demands.demand(object, interpreter.get());
        Optional<PlacementState.Forwarded> went = store.forwarded(p.uid());
        if (suspended(object)) {
            if (p.cluster().isPresent()
                    && !asked.unsafe()
                    && went.map(w -> !w.spec().equals(object.spec())).orElse(true)) {
                forwarding.apply(p, object, Optional.of(asked));
            }
            return;
        }
        if (asked instanceof DemandCache.Asked.Invalid invalid) {
            submission.fail(p, object, invalid.reason(), invalid.why());
            return;
        }
        // it joins the queue, keeping the cluster where its suspended copy waits: the scheduling cycle resumes it there
        // when its pods fit there, else places it anew where they fit (and its copy there goes)
        store.write(p.with(p.cluster(), p.epoch(), State.QUEUED, "", Map.of(), clock.instant()));
        effects.event(
                object,
                EventReason.Resumed,
                p.cluster()
                        .map(home -> "resumed on the hub; it is placed where it fits, on " + home
                                + " first (its suspended copy is there)")
                        .orElse("resumed on the hub; it is placed where it fits"));
    }
}
