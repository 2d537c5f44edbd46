package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.Reservation;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Suspend and resume from the hub, through the definition's suspend actions. Suspending a placed gang sends the
 * change to its copy at the next epoch (the member's controller suspends it and its pods go) and releases at once
 * what the broker held for it: the placement stays on its cluster as {@link State#SUSPENDED}, holding nothing.
 * Resuming plans it again: on its own cluster when its pods fit there now (the change goes to its copy at the next
 * epoch, its nodes reserved); otherwise its suspended copy there is deleted and it is queued as a new gang, placed
 * wherever it fits first. Coordinator thread only.
 */
final class Suspension {
    private final PlacementStore store;
    private final Fleet fleet;
    private final DemandCache demands;
    private final Forwarding forwarding;
    private final Placing placing;
    private final Effects effects;
    private final java.time.Clock clock;
    private final Supplier<Interpreter> interpreter;

    Suspension(
            PlacementStore store,
            Fleet fleet,
            DemandCache demands,
            Forwarding forwarding,
            Placing placing,
            Effects effects,
            java.time.Clock clock,
            Supplier<Interpreter> interpreter) {
        this.store = store;
        this.fleet = fleet;
        this.demands = demands;
        this.forwarding = forwarding;
        this.placing = placing;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
    }

    /** Whether the hub object is suspended now. */
    boolean suspended(HubObject object) {
        return demands.needs(object, interpreter.get()).suspended();
    }

    /** A placed gang's hub object was suspended. Returns true when what it held was released. */
    boolean suspend(PlacementRecord p, HubObject object, DemandCache.Asked asked) {
        String cluster = p.cluster().orElseThrow();
        long epoch = p.epoch() + 1;
        String reason = "suspended on the hub; its copy on " + cluster
                + " is suspended there and what it held is free for other gangs";
        PlacementRecord next = p.with(p.cluster(), epoch, State.SUSPENDED, reason, Map.of(), clock.instant());
        store.write(next);
        store.release(p.uid());
        forwarding.apply(next, object, Optional.of(asked));
        effects.mark(
                object,
                Map.of(MetadataKeys.PHASE_LABEL, "Suspended"),
                Map.of(MetadataKeys.REASON_ANNOTATION, reason, MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch)));
        effects.event(object, EventReason.Suspended, reason);
        return true;
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
            placing.fail(p, object, invalid.reason(), invalid.why());
            return;
        }
        Instant now = clock.instant();
        if (p.cluster().isEmpty()) { // suspended before it was ever placed: it joins the queue
            store.write(p.with(Optional.empty(), p.epoch(), State.QUEUED, "", Map.of(), now));
            effects.event(object, EventReason.Resumed, "resumed on the hub; it is placed where it fits");
            return;
        }
        DemandCache.Asked.Gang gang = (DemandCache.Asked.Gang) asked;
        String home = p.cluster().get();
        long epoch = p.epoch() + 1;
        Optional<String> missing = placing.dependencies().missing(object);
        Decision atHome = placing.plan(gang, placing.planningView().only(home), placing.budgetOf(p));
        if (atHome instanceof Decision.Placed placed && missing.isEmpty()) {
            Reservation held = store.reserve(p.uid(), epoch, placed, gang.pods());
            PlacementRecord next = p.with(p.cluster(), epoch, State.PLACED, "", held.perNode(), now)
                    .withPin(MemberTopology.of(fleet, gang, placed));
            store.write(next);
            forwarding.apply(next, object, Optional.of(gang));
            effects.mark(
                    object,
                    Map.of(MetadataKeys.PHASE_LABEL, "Placed"),
                    Map.of(MetadataKeys.REASON_ANNOTATION, "", MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch)));
            effects.event(object, EventReason.Resumed, "resumed on " + home + " (its pods fit there again)");
            return;
        }
        String why = missing.orElseGet(() -> atHome.clusters().stream()
                .map(Decision.Verdict::reason)
                .findFirst()
                .orElse(home + " has not reported"));
        PlacementRecord requeued = p.with(Optional.empty(), epoch, State.QUEUED, "", Map.of(), now);
        store.write(requeued);
        forwarding.delete(requeued, home); // its suspended copy there goes; it is placed anew
        effects.mark(
                object,
                Map.of(MetadataKeys.CLUSTER_LABEL, ""),
                Map.of(MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch)));
        effects.event(
                object,
                EventReason.Resumed,
                "resumed on the hub; it cannot run on " + home + " now (" + why
                        + "), so its copy there is deleted and it is placed anew where it fits");
    }
}
