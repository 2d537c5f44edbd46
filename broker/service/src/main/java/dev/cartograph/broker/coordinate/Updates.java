package dev.cartograph.broker.coordinate;

import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.PodDemand;
import dev.cartograph.protocol.MetadataKeys;
import dev.cartograph.protocol.PlacementRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A placed gang's hub object, seen again or changed (not suspended: that is {@link Suspension}'s). Seen for the first
 * time by this instance (a restart or a new leader), an apply the agent never confirmed is sent again; a lost cluster
 * mark is written again.
 *
 * <p>A placed gang whose spec changed on the hub: the change is forwarded only if it still fits where the gang runs.
 * Pods it keeps stay where they are; the pods it adds (more replicas, or a role whose pods changed shape) must fit on
 * its cluster's free capacity now: the {@link SchedulingCycle} after the batch plans them there ({@link #growth},
 * {@link #grown}), and they are reserved there until the member accounts for them. The change goes out as the
 * placement's next epoch (durable first), so the agent's reports tell it apart from the version before. Scaling down
 * always goes through. A change that does not fit, or cannot be read, is not forwarded: the running copy keeps its
 * spec and the hub object says why (reason annotation and a {@code NotForwarded} Event), once per spec. Coordinator
 * thread only.
 */
final class Updates {
    private final PlacementStore store;
    private final DemandCache demands;
    private final Forwarding forwarding;
    private final StatusMirror mirror;
    private final Effects effects;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;

    Updates(
            PlacementStore store,
            DemandCache demands,
            Forwarding forwarding,
            StatusMirror mirror,
            Effects effects,
            Clock clock,
            Supplier<Interpreter> interpreter) {
        this.store = store;
        this.demands = demands;
        this.forwarding = forwarding;
        this.mirror = mirror;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
    }

    /**
     * A placed object changed: forward a new generation; on first sight in this instance, send an unconfirmed
     * apply again.
     */
    void placed(PlacementRecord p, HubObject object) {
        if (!object.shownCluster()
                .equals(p.cluster().get())) { // the mark was lost (or is still on its way): level-triggered
            effects.mark(
                    object,
                    Map.of(MetadataKeys.CLUSTER_LABEL, p.cluster().get()),
                    Map.of(MetadataKeys.EPOCH_ANNOTATION, Long.toString(p.epoch())));
        }
        Optional<PlacementState.Forwarded> forwarded = store.forwarded(p.uid());
        if (forwarded.isPresent() && !forwarded.get().spec().equals(object.spec())) {
            changed(p, object, forwarded.get());
        } else if (forwarded.isEmpty()) {
            // first sight in this instance (a restart or a new leader): the member runs this spec, as far as it knows
            Optional<DemandCache.Asked> asked = Optional.of(demands.demand(object, interpreter.get()));
            if (p.state() == PlacementRecord.State.PLACED && asked.get().unsafe()) {
                refuse(
                        p,
                        object,
                        "not sent to " + p.cluster().get() + ": " + ((DemandCache.Asked.Invalid) asked.get()).reason(),
                        EventReason.PodSecurity);
            }
            if (p.state() == PlacementRecord.State.PLACED) {
                forwarding.apply(p, object, asked); // may never have reached the agent; it applies idempotently
            } else {
                store.forwarded(p.uid(), new PlacementState.Forwarded(object.spec(), asked));
            }
            store.member(p).ifPresent(member -> mirror.mirror(object, member, Optional.empty()));
        }
    }

    /**
     * The spec differs from what was forwarded. Returns true when it was forwarded now; a change that adds pods is
     * planned by the scheduling cycle after the batch ({@link #growth}, {@link #grown}).
     */
    boolean changed(PlacementRecord p, HubObject object, PlacementState.Forwarded before) {
        if (store.state(p.uid())
                .flatMap(PlacementState::refusedSpec)
                .filter(object.spec()::equals)
                .isPresent()) {
            return false; // already answered for this spec
        }
        DemandCache.Asked asked = demands.demand(object, interpreter.get());
        if (asked.unsafe()) {
            return refuse(
                    p,
                    object,
                    "the change is not forwarded; the running copy keeps its spec: "
                            + ((DemandCache.Asked.Invalid) asked).reason(),
                    EventReason.PodSecurity);
        }
        if (asked instanceof DemandCache.Asked.Invalid invalid) {
            return refuse(p, object, "the change cannot be read, so it is not forwarded: " + invalid.reason());
        }
        if (!added(before, (DemandCache.Asked.Gang) asked).isEmpty()) {
            store.queue().resize(p.uid()); // its added pods must fit on its cluster: the cycle plans them
            return false;
        }
        return forward(p, object, asked, p::reserved, false); // scaling down, or a change of what the pods keep
    }

    /**
     * A change that adds pods to a placed gang, as the scheduling cycle plans it.
     *
     * @param added the pods beyond what runs, pinned to the domain the gang was placed in
     */
    record Growth(
            PlacementRecord record, HubObject object, DemandCache.Asked.Gang asked, DemandCache.Asked.Gang added) {
        String cluster() {
            return record.cluster().orElseThrow();
        }
    }

    /**
     * The change of a placed gang that adds pods, if it still stands (placed, its object there and changed since it was
     * forwarded, not refused, and asking for more pods than went).
     */
    Optional<Growth> growth(String uid) {
        Optional<PlacementRecord> p = store.placement(uid)
                .filter(r -> (r.state() == PlacementRecord.State.PLACED || r.state() == PlacementRecord.State.APPLIED)
                        && r.cluster().isPresent());
        Optional<HubObject> object = store.object(uid).filter(o -> !o.deleting());
        Optional<PlacementState.Forwarded> before = store.forwarded(uid);
        if (p.isEmpty()
                || object.isEmpty()
                || before.isEmpty()
                || before.get().spec().equals(object.get().spec())) {
            return Optional.empty();
        }
        if (store.state(uid)
                        .flatMap(PlacementState::refusedSpec)
                        .filter(object.get().spec()::equals)
                        .isPresent()
                || !(demands.demand(object.get(), interpreter.get()) instanceof DemandCache.Asked.Gang gang)
                || demands.needs(object.get(), interpreter.get()).suspended()) {
            return Optional.empty();
        }
        List<PodDemand> added = added(before.get(), gang);
        return added.isEmpty()
                ? Optional.empty()
                : Optional.of(new Growth(
                        p.get(),
                        object.get(),
                        gang,
                        new DemandCache.Asked.Gang(
                                DemandCache.Asked.Gang.pinned(added, p.get().pin()), Map.of())));
    }

    /**
     * What the cycle found for a change that adds pods: placed on its cluster, it goes out as the next epoch with its
     * added pods reserved there; else it is refused with the reason, and the running copy keeps its spec.
     */
    void grown(Growth g, Decision fit) {
        PlacementRecord p = g.record();
        String cluster = g.cluster();
        if (!(fit instanceof Decision.Placed placed)) {
            String why = fit.clusters().stream()
                    .map(Decision.Verdict::reason)
                    .findFirst()
                    .orElse(cluster + " has not reported");
            refuse(
                    p,
                    g.object(),
                    "the change needs "
                            + g.added().pods().stream()
                                    .mapToInt(PodDemand::count)
                                    .sum()
                            + " more pods that do not fit on " + cluster + " now (" + why
                            + "); the running copy keeps its spec");
            return;
        }
        // a new version of the copy: the next epoch, so only a summary from after the agent applied it releases what
        // it adds; the record holds the extended reservation, so a broker that restarts before the member accounts
        // for it holds it too
        forward(
                p,
                g.object(),
                g.asked(),
                () -> store.extend(
                                p.uid(),
                                cluster,
                                p.epoch() + 1,
                                placed,
                                g.added().pods())
                        .perNode(),
                true);
    }

    /**
     * Forwards the change as the placement's next epoch, holding what {@code reserve} reserves; a change whose copy is
     * larger than a command may be is refused instead, and nothing is reserved.
     */
    private boolean forward(
            PlacementRecord p,
            HubObject object,
            DemandCache.Asked asked,
            java.util.function.Supplier<Map<String, ResourceList>> reserve,
            boolean grew) {
        String cluster = p.cluster().orElseThrow();
        PlacementRecord next =
                p.with(p.cluster(), p.epoch() + 1, PlacementRecord.State.PLACED, "", p.reserved(), clock.instant());
        Optional<String> tooLarge = forwarding.apply(next, object, Optional.of(asked));
        if (tooLarge.isPresent()) {
            return refuse(p, object, "the change is not forwarded; the running copy keeps its spec: " + tooLarge.get());
        }
        store.write(next.with(next.cluster(), next.epoch(), next.state(), "", reserve.get(), next.at()));
        store.update(p.uid(), s -> s.withRefusedSpec(Optional.empty()));
        effects.event(
                object,
                EventReason.Forwarded,
                "change sent to " + cluster + (grew ? " (its added pods fit there)" : ""));
        return true;
    }

    /** The pods the gang asks for now beyond what it asked when it was last forwarded. */
    private static List<PodDemand> added(PlacementState.Forwarded before, DemandCache.Asked.Gang now) {
        List<PodDemand> had = before.asked()
                .filter(DemandCache.Asked.Gang.class::isInstance)
                .map(a -> ((DemandCache.Asked.Gang) a).pods())
                .orElse(List.of());
        return added(had, now.pods());
    }

    private boolean refuse(PlacementRecord p, HubObject object, String reason) {
        return refuse(p, object, reason, EventReason.NotForwarded);
    }

    private boolean refuse(PlacementRecord p, HubObject object, String reason, EventReason why) {
        store.update(p.uid(), s -> s.withRefusedSpec(Optional.of(object.spec())));
        effects.mark(object, Map.of(), Map.of(MetadataKeys.REASON_ANNOTATION, reason));
        effects.event(object, why, reason);
        return false;
    }

    /** The pods {@code now} asks for beyond {@code had}: more of a role's pods, or every pod of a role whose pods changed. */
    static List<PodDemand> added(List<PodDemand> had, List<PodDemand> now) {
        List<PodDemand> out = new ArrayList<>();
        for (PodDemand d : now) {
            Optional<PodDemand> same = had.stream()
                    .filter(o -> o.component().equals(d.component())
                            && o.instance().equals(d.instance())
                            && o.perPod().equals(d.perPod())
                            && o.constraints().equals(d.constraints()))
                    .findFirst();
            int more = d.count() - same.map(PodDemand::count).orElse(0);
            if (more > 0) {
                out.add(d.withCount(more));
            }
        }
        return out;
    }

    /**
     * The member refused a change of a copy that runs there (a 422, an admission webhook): the running copy keeps its
     * spec, what the change reserved is released, and the hub object says why (once per spec, like a change that does
     * not fit). The placement stays at the change's epoch as applied, so the refused apply is not sent again. Returns
     * the cluster whose capacity was released, if any.
     */
    void changeRefused(PlacementRecord p, HubObject object, String reason) {
        String cluster = p.cluster().orElseThrow();
        store.release(p.uid());
        store.write(p.with(PlacementRecord.State.APPLIED, "", clock.instant()));
        refuse(p, object, cluster + " refused the change (" + reason + "); the running copy keeps its spec");
    }

    /**
     * A ConfigMap, Secret, ServiceAccount or claim changed on the hub: every gang with a copy on a member that needs
     * it sends its apply again, with the dependency as the hub has it now (same epoch: the agent applies it
     * idempotently and updates the dependency); a gang that waited for it is tried again.
     */
    void dependencyChanged(Input.DependencyChanged c) {
        for (String uid : store.users(c.kind(), c.namespace(), c.name())) {
            Optional<PlacementRecord> p = store.placement(uid);
            Optional<HubObject> object = store.object(uid).filter(o -> !o.deleting());
            if (p.isEmpty() || object.isEmpty()) {
                continue;
            }
            PlacementRecord.State state = p.get().state();
            if (state == PlacementRecord.State.QUEUED) {
                store.queue().enter(uid);
            } else if ((state == PlacementRecord.State.PLACED
                            || state == PlacementRecord.State.APPLIED
                            || state == PlacementRecord.State.SUSPENDED)
                    && p.get().cluster().isPresent()) {
                Optional<PlacementState.Forwarded> went = store.forwarded(uid);
                if (went.isPresent() && went.get().spec().equals(object.get().spec())) {
                    forwarding.apply(p.get(), object.get(), went.get().asked());
                } // else its spec changed too, or it was not sent by this instance yet: that is sent on its own
            }
        }
    }
}
