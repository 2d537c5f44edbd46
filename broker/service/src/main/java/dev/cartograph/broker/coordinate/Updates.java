package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.Planner;
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
 * A placed gang's hub object, seen again or changed. Seen for the first time by this instance (a restart or a
 * new leader), an apply the agent never confirmed is sent again; a lost cluster mark is written again.
 *
 * <p>A placed gang whose spec changed on the hub: the change is forwarded only if it still fits where
 * the gang runs. Pods it keeps stay where they are; the pods it adds (more replicas, or a role whose
 * pods changed shape) must fit on its cluster's free capacity now, and are reserved there until the
 * member accounts for them. The change goes out as the placement's next epoch (durable first), so
 * the agent's reports tell it apart from the version before. Scaling down always goes through. A change that does not fit, or cannot
 * be read, is not forwarded: the running copy keeps its spec and the hub object says why (reason
 * annotation and a {@code NotForwarded} Event), once per spec. Coordinator thread only.
 */
final class Updates {
    private final BrokerSettings settings;
    private final PlacementStore store;
    private final Fleet fleet;
    private final DemandCache demands;
    private final Forwarding forwarding;
    private final StatusMirror mirror;
    private final Effects effects;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;
    private final Suspension suspension;

    /** What more a placement's queue may take now (its added pods are held to it). */
    private final java.util.function.Function<PlacementRecord, dev.cartograph.placement.GpuBudget> budget;

    Updates(
            BrokerSettings settings,
            PlacementStore store,
            Fleet fleet,
            DemandCache demands,
            Forwarding forwarding,
            StatusMirror mirror,
            Effects effects,
            Clock clock,
            Supplier<Interpreter> interpreter,
            Suspension suspension,
            java.util.function.Function<PlacementRecord, dev.cartograph.placement.GpuBudget> budget) {
        this.settings = settings;
        this.budget = budget;
        this.store = store;
        this.fleet = fleet;
        this.demands = demands;
        this.forwarding = forwarding;
        this.mirror = mirror;
        this.effects = effects;
        this.clock = clock;
        this.interpreter = interpreter;
        this.suspension = suspension;
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
            if (!asked.get().unsafe() && suspension.suspended(object)) { // suspended while no broker was leading
                suspension.suspend(p, object, asked.get());
                return;
            }
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

    /** The spec differs from what was forwarded. Returns true when it was forwarded. */
    boolean changed(PlacementRecord p, HubObject object, PlacementState.Forwarded before) {
        if (store.state(p.uid())
                .flatMap(PlacementState::refusedSpec)
                .filter(object.spec()::equals)
                .isPresent()) {
            return false; // already answered for this spec
        }
        String cluster = p.cluster().orElseThrow();
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
        if (suspension.suspended(object)) {
            store.update(p.uid(), s -> s.withRefusedSpec(Optional.empty()));
            return suspension.suspend(p, object, asked);
        }
        List<PodDemand> now = ((DemandCache.Asked.Gang) asked).pods();
        List<PodDemand> had = before.asked()
                .filter(DemandCache.Asked.Gang.class::isInstance)
                .map(a -> ((DemandCache.Asked.Gang) a).pods())
                .orElse(List.of());
        List<PodDemand> added = added(had, now);
        Optional<Decision.Placed> room = Optional.empty();
        if (!added.isEmpty()) {
            Decision fit = Planner.plan(
                    DemandCache.Asked.Gang.pinned(added, p.pin()), // in the domain it was placed in
                    Map.of(),
                    fleet.planning(clock.instant(), settings.heartbeatTimeout()).only(cluster),
                    settings.policy(),
                    budget.apply(p)); // its queue's quota: the added pods take what one more gang of it may
            if (!(fit instanceof Decision.Placed placed)) {
                String why = fit.clusters().stream()
                        .map(Decision.Verdict::reason)
                        .findFirst()
                        .orElse(cluster + " has not reported");
                return refuse(
                        p,
                        object,
                        "the change needs "
                                + added.stream().mapToInt(PodDemand::count).sum() + " more pods that do not fit on "
                                + cluster + " now (" + why + "); the running copy keeps its spec");
            }
            room = Optional.of(placed);
        }
        // a new version of the copy: the next epoch, so only a summary from after the agent applied it releases what it
        // adds;
        // the record holds the extended reservation, so a broker that restarts before the member accounts for it holds
        // it too
        long epoch = p.epoch() + 1;
        Map<String, ResourceList> reserved = room.map(placed ->
                        store.extend(p.uid(), cluster, epoch, placed, added).perNode())
                .orElse(p.reserved());
        PlacementRecord next = p.with(p.cluster(), epoch, PlacementRecord.State.PLACED, "", reserved, clock.instant());
        store.write(next);
        store.update(p.uid(), s -> s.withRefusedSpec(Optional.empty()));
        forwarding.apply(next, object, Optional.of(asked));
        effects.event(
                object,
                EventReason.Forwarded,
                "change sent to " + cluster + (added.isEmpty() ? "" : " (its added pods fit there)"));
        return true;
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
