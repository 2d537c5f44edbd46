package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.mutate.Mutator;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.preemption.Preemption;
import dev.cartograph.preemption.Preemptor;
import dev.cartograph.preemption.Victim;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Preemption on the coordinator (ADR 0006): for a gang that fits nowhere, the victims whose going makes it fit on one
 * cluster ({@link Preemption}); once the preemptor and its victims are durable together, each victim gives back what
 * it held, its copy is suspended through its definition's suspend actions (deleted when the kind has none), and it
 * waits in the queue again with the reason and a {@code Preempted} Event. A victim keeps its cluster while it waits:
 * placed there again (at a higher epoch) it resumes its suspended copy; placed elsewhere, the copy goes.
 * Coordinator thread only.
 */
final class Preempting {
    private static final Logger LOG = LoggerFactory.getLogger(Preempting.class);

    private final BrokerSettings settings;
    private final PlacementStore store;
    private final Fleet fleet;
    private final FairShare fairShare;
    private final Forwarding forwarding;
    private final Effects effects;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;

    Preempting(
            BrokerSettings settings,
            PlacementStore store,
            Fleet fleet,
            FairShare fairShare,
            Forwarding forwarding,
            Effects effects,
            Clock clock,
            Supplier<Interpreter> interpreter) {
        this.settings = settings;
        this.store = store;
        this.fleet = fleet;
        this.fairShare = fairShare;
        this.forwarding = forwarding;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
    }

    /** Who would make room for the waiting gang on which cluster of {@code scope}; empty without queues. */
    Optional<Preemption.Plan> plan(PlacementRecord p, DemandCache.Asked.Gang gang, PlanningFleet scope) {
        if (!fairShare.on()) {
            return Optional.empty();
        }
        PlacementRecord.Target t = p.target();
        Preemptor preemptor = new Preemptor(
                t.namespace() + "/" + t.name(),
                fairShare.queueOf(t.namespace()),
                p.priority(),
                gang.pods(),
                gang.clusterSelector(),
                gang.topology());
        return fairShare.preempt(preemptor, () -> victims(p.uid()), scope, settings.policy());
    }

    /** The gangs that hold GPUs now, as victims; not the waiting gang itself. */
    private List<Victim> victims(String except) {
        List<Victim> out = new ArrayList<>();
        for (PlacementRecord v : store.placements()) {
            Map<String, Long> gpus = fairShare.held(v.uid());
            if (v.uid().equals(except) || gpus.isEmpty()) {
                continue; // held() is empty unless placed or applied, on a cluster, and not finished
            }
            boolean started = v.state() == State.APPLIED
                    && store.member(v).map(m -> "Running".equals(m.phase())).orElse(false);
            out.add(new Victim(
                    v.uid(),
                    v.target().namespace() + "/" + v.target().name(),
                    fairShare.queueOf(v.target().namespace()),
                    v.priority(),
                    v.cluster().orElseThrow(),
                    v.reserved(),
                    gpus,
                    v.at(),
                    started));
        }
        return out;
    }

    /**
     * The victims' records as they wait again: at a higher epoch, holding nothing, with the reason; on their cluster
     * when their copy is suspended there, on none when it is deleted.
     */
    List<PlacementRecord> requeued(Preemption.Plan plan) {
        Instant now = clock.instant();
        List<PlacementRecord> out = new ArrayList<>();
        for (Victim v : plan.victims()) {
            PlacementRecord p = store.placement(v.uid()).orElseThrow();
            boolean suspends =
                    store.object(v.uid()).flatMap(this::suspendedCopy).isPresent();
            Optional<String> stays = suspends ? p.cluster() : Optional.empty();
            out.add(p.with(stays, p.epoch() + 1, State.QUEUED, plan.reasons().get(v.uid()), Map.of(), now));
        }
        return out;
    }

    /**
     * The preemptor and the victims' {@link #requeued} records are durable: each victim lets go of its nodes on the
     * plan's cluster, its copy there is suspended (or deleted), and the hub shows why.
     */
    void preempted(Preemption.Plan plan, List<PlacementRecord> victims) {
        String cluster = plan.cluster();
        for (PlacementRecord v : victims) {
            store.release(v.uid());
            Optional<HubObject> object = store.object(v.uid());
            Optional<JsonNode> suspended =
                    v.cluster().isPresent() ? object.flatMap(this::suspendedCopy) : Optional.empty();
            String what;
            if (object.isPresent() && suspended.isPresent()) {
                forwarding.applyAs(v, object.get(), suspended.get());
                what = "its copy on " + cluster + " is suspended";
            } else {
                forwarding.delete(v, cluster);
                what = "its copy on " + cluster + " is deleted (its kind has no suspend action)";
            }
            LOG.info("{}: {}; {}", v.target(), v.reason(), what);
            object.ifPresent(o -> {
                effects.mark(
                        o,
                        Map.of(MetadataKeys.PHASE_LABEL, "Queued"),
                        Map.of(
                                MetadataKeys.REASON_ANNOTATION,
                                v.reason(),
                                MetadataKeys.EPOCH_ANNOTATION,
                                Long.toString(v.epoch())));
                effects.event(o, EventReason.Preempted, v.reason() + "; " + what + " and it waits to be placed again");
            });
        }
    }

    /**
     * A preempted gang whose copy still runs pods a heartbeat timeout after its suspend was sent (the command was
     * lost, or the agent has not carried it out): the suspend is sent again, so what the broker gave away is freed.
     */
    void resendUnanswered(Instant now) {
        for (PlacementRecord p : store.inState(State.QUEUED)) {
            if (p.cluster().isEmpty()
                    || Duration.between(store.lastSent(p), now).compareTo(settings.heartbeatTimeout()) <= 0
                    || !fleet.ready(p.cluster().get(), now, settings.heartbeatTimeout())
                    || store.member(p).map(m -> m.pods() == 0).orElse(true)) {
                continue;
            }
            Optional<HubObject> object = store.object(p.uid()).filter(o -> !o.deleting());
            Optional<JsonNode> suspended = object.flatMap(this::suspendedCopy);
            if (suspended.isPresent()) {
                LOG.warn(
                        "{}: its copy on {} still runs pods; sending the suspend again",
                        p.target(),
                        p.cluster().get());
                forwarding.applyAs(p, object.get(), suspended.get());
            }
        }
    }

    /** The hub object as its definition suspends it; empty when the kind has no suspend action or it failed. */
    private Optional<JsonNode> suspendedCopy(HubObject object) {
        Mutator.Result r = interpreter.get().suspend(object.raw());
        return r.problems().isEmpty() && r.changed() > 0 ? Optional.of(r.object()) : Optional.empty();
    }
}
