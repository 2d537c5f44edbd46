package dev.cartograph.broker.coordinate;

import dev.cartograph.fleet.Fleet;
import dev.cartograph.fleet.Reservation;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.mutate.Mutator;
import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Binds a queued gang where the planner placed it: its nodes reserved, its record (with whatever must be durable with
 * it) and its apply staged together, and the hub shown where it went. A gang that waited with a copy on some cluster
 * (preempted there) is placed at a higher epoch, and when placed elsewhere that copy is deleted. Coordinator thread
 * only.
 */
final class Binding {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Binding.class);
    private final PlacementStore store;
    private final Fleet fleet;
    private final Forwarding forwarding;
    private final Effects effects;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;

    Binding(
            PlacementStore store,
            Fleet fleet,
            Forwarding forwarding,
            Effects effects,
            Clock clock,
            Supplier<Interpreter> interpreter) {
        this.interpreter = interpreter;
        this.store = store;
        this.fleet = fleet;
        this.forwarding = forwarding;
        this.effects = effects;
        this.clock = clock;
    }

    /**
     * Places the gang as decided: its nodes reserved, its record (and {@code with}) and its apply go out together.
     * Returns why it could not be, when its apply is larger than a command may be: then nothing of it is staged,
     * reserved or written.
     */
    Optional<String> land(
            PlacementRecord p,
            HubObject object,
            DemandCache.Asked.Gang gang,
            Decision.Placed placed,
            List<PlacementRecord> with) {
        Instant now = clock.instant();
        Optional<String> before = p.cluster();
        // a gang that waited with a copy somewhere (preempted) runs at a higher epoch: the agent's reports of the
        // suspended copy (no pods pending) must not count as accounting for what is reserved for it now
        long epoch = before.isPresent() ? p.epoch() + 1 : p.epoch();
        PlacementRecord unreserved = p.with(Optional.of(placed.cluster()), epoch, State.PLACED, "", Map.of(), now)
                .withPin(MemberTopology.of(fleet, gang, placed));
        boolean home = before.isPresent() && before.get().equals(placed.cluster());
        // the apply first: one Kafka cannot carry is refused before anything of the gang is reserved or durable
        Optional<String> refused = home
                ? resume(unreserved, object, gang) // its suspended copy there runs again
                : forwarding.apply(unreserved, object, Optional.of(gang));
        if (refused.isPresent()) {
            return refused;
        }
        Reservation reservation = store.reserve(p.uid(), epoch, placed, gang.pods());
        PlacementRecord next =
                unreserved.with(unreserved.cluster(), epoch, State.PLACED, "", reservation.perNode(), now);
        List<PlacementRecord> batch = new ArrayList<>(with);
        batch.add(next);
        store.writeAll(batch);
        store.placedAgain(p.uid());
        if (before.isPresent()) {
            LOG.info(
                    "{}: placed again on {} at epoch {} (its copy waited on {})",
                    p.target(),
                    placed.cluster(),
                    epoch,
                    before.get());
        }
        if (!home) {
            before.ifPresent(there -> forwarding.delete(next, there)); // its suspended copy there goes
        }
        String why = placed.clusters().stream()
                .filter(v -> v.cluster().equals(placed.cluster()))
                .findFirst()
                .map(Decision.Verdict::reason)
                .orElse("");
        effects.mark(
                object,
                Map.of(MetadataKeys.CLUSTER_LABEL, placed.cluster(), MetadataKeys.PHASE_LABEL, "Placed"),
                Map.of(MetadataKeys.REASON_ANNOTATION, "", MetadataKeys.EPOCH_ANNOTATION, Long.toString(epoch)));
        effects.event(
                object,
                EventReason.Placed,
                "placed on " + placed.cluster() + " (epoch " + epoch + ")" + (why.isEmpty() ? "" : ": " + why)
                        + (before.isPresent() && !home
                                ? "; its suspended copy on " + before.get() + " is deleted"
                                : ""));
        if (home) {
            effects.event(
                    object, EventReason.Resumed, "resumed on " + placed.cluster() + " (its pods fit there again)");
        }
        return Optional.empty();
    }

    /**
     * The hub object with its definition's resume actions applied, so the copy a preemption suspended runs again even
     * when the hub object never says so (a JSON merge patch leaves a field the manifest does not name as it was).
     */
    private Optional<String> resume(PlacementRecord p, HubObject object, DemandCache.Asked.Gang gang) {
        Mutator.Result resumed = interpreter.get().resume(object.raw());
        return resumed.problems().isEmpty()
                ? forwarding.applyResumed(p, object, resumed.object(), Optional.of(gang))
                : forwarding.apply(p, object, Optional.of(gang));
    }
}
