package dev.cartograph.broker.coordinate;

import dev.cartograph.placement.Decision;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Why a queued gang waits, as the hub object shows it (reason annotation, phase label, one Event each time it enters
 * the queue) and the placement record keeps it. Coordinator thread only.
 */
final class Waiting {
    /** A waiting gang's reason on the hub is refreshed at most this often (capacity changes all the time). */
    static final Duration REASON_REFRESH = Duration.ofSeconds(10);

    private record Rendered(Decision decision, String reason) {}

    private final PlacementStore store;
    private final Effects effects;
    private Rendered lastRendered = new Rendered(null, "");

    Waiting(PlacementStore store, Effects effects) {
        this.store = store;
        this.effects = effects;
    }

    /**
     * Records why a gang waits. The queued record is made durable once per time it enters the queue
     * (its reason changes with every capacity change and matters only while this instance leads); the
     * hub shows the reason, refreshed at most every {@link #REASON_REFRESH}, and one Unschedulable
     * Event per time it enters the queue. The decision is kept as it is; its reason, one line per
     * cluster, is written out only when it is to be written or shown (so the record in the store
     * carries the reason the hub shows).
     */
    void waits(PlacementRecord p, HubObject object, Supplier<String> rendered, EventReason why, Instant now) {
        boolean entering = p.reason().isEmpty();
        PlacementState.Written shown =
                store.state(p.uid()).flatMap(PlacementState::shown).orElse(null);
        if (!entering && shown != null && now.isBefore(shown.at().plus(REASON_REFRESH))) {
            return; // shown a moment ago: not rendered again yet
        }
        String reason = rendered.get();
        if (entering) {
            store.write(p.with(State.QUEUED, reason, now));
        }
        if (entering || shown == null || !shown.value().equals(reason)) {
            store.keep(p.with(State.QUEUED, reason, now));
            store.update(p.uid(), s -> s.withShown(Optional.of(new PlacementState.Written(reason, now))));
            effects.mark(
                    object,
                    Map.of(MetadataKeys.PHASE_LABEL, "Queued", MetadataKeys.CLUSTER_LABEL, ""),
                    Map.of(MetadataKeys.REASON_ANNOTATION, reason));
        }
        if (entering) {
            effects.event(object, why, reason);
        }
    }

    /** The decision's reason, written out once however many gangs share the decision. */
    private String rendered(Decision decision) {
        if (lastRendered.decision() != decision) {
            lastRendered = new Rendered(decision, unschedulable(decision));
        }
        return lastRendered.reason();
    }

    /**
     * Why a gang waits: where it does not fit, and which clusters refused it, each with its own reason; after what
     * preempted it, if something did (that stays while it waits).
     */
    String reason(Decision decision, PlacementRecord p) {
        if (p.reason().startsWith(dev.cartograph.preemption.Preemption.PREEMPTED_BY)) {
            int end = p.reason().indexOf("; waits for ");
            String cause = end < 0 ? p.reason() : p.reason().substring(0, end);
            return cause + "; " + reasonNow(decision, p);
        }
        return reasonNow(decision, p);
    }

    private String reasonNow(Decision decision, PlacementRecord p) {
        if (p.refusals().isEmpty()) {
            return rendered(decision);
        }
        String refused = p.refusals().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " (" + e.getValue() + ")")
                .collect(Collectors.joining("; "));
        return decision.clusters().isEmpty()
                ? "every cluster that could take it refused it: " + refused + ". Change the object to try them again"
                : rendered(decision) + "; refused by " + refused;
    }

    static String unschedulable(Decision decision) {
        if (decision.clusters().isEmpty()) {
            return "no member cluster has reported yet";
        }
        boolean quota = decision.clusters().stream()
                .anyMatch(v -> v.reason().startsWith(dev.cartograph.placement.GpuBudget.OVER_QUOTA));
        return (quota ? "waits for quota: " : "waits for capacity: ")
                + decision.clusters().stream()
                        .map(v -> v.cluster() + ": " + v.reason())
                        .collect(Collectors.joining("; "));
    }
}
