package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.DemandCache.Asked.Gang;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fairshare.QueueSpec;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.GpuBudget;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.preemption.Preemption;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling cycle, run after each batch while this instance is active: the one path by which anything is placed,
 * with or without Queues on the hub, and the only caller of the planner ({@link PlanningSnapshot#plan}). In order:
 *
 * <ol>
 *   <li>changes of placed gangs that add pods ({@link Updates}): the added pods planned on the gang's own cluster, in
 *       the domain it was placed in, and forwarded or refused;
 *   <li>queue heads in fair order ({@link RetryOrder}): the gangs new to the queue, and the gangs of each waiting ask
 *       ({@link PlacementQueue}) that fits a cluster whose capacity changed;
 *   <li>each planned against a snapshot of the whole fleet — first on the cluster where a copy of it waits (resumed,
 *       or preempted), never first on the cluster that could not start it;
 *   <li>preempted for where queues allow it ({@link Preempting}), when it fits nowhere as things are;
 *   <li>bound where it was placed ({@link Binding}), or left waiting with its reason ({@link Waiting}).
 * </ol>
 *
 * <p>Capacity changes one cluster at a time (a summary whose nodes changed, a reservation released, a cluster whose
 * readiness flipped), and a gang that fitted nowhere can only fit now where something changed: each distinct waiting
 * ask is tested once against the changed clusters alone. The whole queue is tried when something no one cluster
 * explains changed (definitions, Queues, this instance became active) and at least every {@link #FULL_RETRY}, as a
 * safety net. A placement takes capacity: an ask that no longer fits after it closes for the rest of the cycle. One
 * gang that cannot be planned, however it fails, is failed alone with the reason. Coordinator thread only.
 */
final class SchedulingCycle {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulingCycle.class);
    /** The whole queue is tried again at least this often (on a tick), whatever changed. */
    static final Duration FULL_RETRY = Duration.ofSeconds(60);

    /**
     * What one cycle did, for benchmarks and logs: whether it tried the whole queue, how many clusters had changed,
     * how many distinct asks wait (after it), how many were tested, how many gangs were attempted and placed.
     */
    record Stats(boolean full, int clusters, int asks, int asksTested, int attempted, int placed) {
        static final Stats NONE = new Stats(false, 0, 0, 0, 0, 0);
    }

    private final BrokerSettings settings;
    private final PlacementStore store;
    private final Fleet fleet;
    private final FairShare fairShare;
    private final DemandCache demands;
    private final DependencyCopies dependencies;
    private final Submission submission;
    private final Updates updates;
    private final Waiting waiting;
    private final Preempting preempting;
    private final Binding binding;
    private final Quarantine quarantine;
    private final DecisionObserver observer;
    private final Clock clock;
    private final Supplier<Interpreter> interpreter;
    private final Set<String> changed = new TreeSet<>();
    private boolean everything = true;
    private Instant lastFull = Instant.MIN;
    private Stats last = Stats.NONE;
    private long lastTestingNanos;

    SchedulingCycle(
            BrokerSettings settings,
            PlacementStore store,
            Fleet fleet,
            FairShare fairShare,
            DemandCache demands,
            DependencyCopies dependencies,
            Submission submission,
            Updates updates,
            Waiting waiting,
            Preempting preempting,
            Binding binding,
            Quarantine quarantine,
            DecisionObserver observer,
            Clock clock,
            Supplier<Interpreter> interpreter) {
        this.settings = settings;
        this.store = store;
        this.fleet = fleet;
        this.fairShare = fairShare;
        this.demands = demands;
        this.dependencies = dependencies;
        this.submission = submission;
        this.updates = updates;
        this.waiting = waiting;
        this.preempting = preempting;
        this.binding = binding;
        this.quarantine = quarantine;
        this.observer = observer;
        this.clock = clock;
        this.interpreter = interpreter;
    }

    /** Capacity or readiness changed on this cluster. */
    void changed(String cluster) {
        changed.add(cluster);
    }

    /** Something changed that no one cluster explains: the next cycle tries the whole queue. */
    void changedEverywhere() {
        everything = true;
    }

    /** The clock's tick: the whole queue is due again when it was last tried {@link #FULL_RETRY} ago. */
    void tick() {
        if (!clock.instant().isBefore(lastFull.plus(FULL_RETRY))) {
            everything = true;
        }
    }

    /** Whether a cycle has anything to do (the clusters where reservations were released count as changed). */
    boolean due() {
        changed.addAll(store.takeFreed());
        return everything
                || !changed.isEmpty()
                || !store.queue().fresh().isEmpty()
                || !store.queue().resizes().isEmpty();
    }

    Stats last() {
        return last;
    }

    /** Time the last cycle spent testing asks on the clusters in scope (planning views included), for benchmarks. */
    long lastTestingNanos() {
        return lastTestingNanos;
    }

    /** One cycle: the changes that add pods, then every gang that could be placed now, in fair order. */
    void run() {
        boolean full = everything;
        Set<String> clusters = Set.copyOf(changed);
        everything = false;
        changed.clear();
        if (full) {
            lastFull = clock.instant();
            regroup();
        }
        PlanningSnapshot snapshot = new PlanningSnapshot(
                fleet, settings.policy(), clock.instant(), settings.heartbeatTimeout(), full ? null : clusters);
        resizes(snapshot);
        RetryOrder next = new RetryOrder(fairShare);
        int tested = 0;
        if (full || !clusters.isEmpty()) {
            for (PlacementQueue.Group group : List.copyOf(store.queue().groups())) {
                tested++;
                if (fits(group, snapshot)) {
                    next.put(group.queue(), store.queue().waiting(group).first(), Optional.of(group));
                }
            }
        }
        for (String uid : List.copyOf(store.queue().fresh())) {
            String queue = store.placement(uid)
                    .map(p -> fairShare.queueOf(p.target().namespace()))
                    .orElse(QueueSpec.DEFAULT);
            next.put(queue, store.queue().key(uid), Optional.empty());
        }
        int attempted = 0;
        int placed = 0;
        while (!next.isEmpty()) {
            Map.Entry<PlacementQueue.Key, Optional<PlacementQueue.Group>> e = next.poll();
            Optional<PlacementQueue.Group> group = e.getValue();
            if (group.isPresent() && !snapshot.testedNow(group.get()) && !fits(group.get(), snapshot)) {
                continue; // what was placed since took the room it had: the rest of its gangs wait
            }
            NavigableSet<PlacementQueue.Key> waits =
                    group.map(g -> store.queue().waiting(g)).orElse(Collections.emptyNavigableSet());
            PlacementQueue.Key after = waits.higher(e.getKey());
            Optional<Boolean> outcome = attempt(e.getKey().uid(), snapshot);
            attempted += outcome.isPresent() ? 1 : 0;
            placed += outcome.orElse(false) ? 1 : 0;
            boolean closed =
                    group.isPresent() && store.queue().groupOf(e.getKey().uid()).equals(group);
            if (!closed && after != null) {
                next.put(group.get().queue(), after, group);
            }
        }
        last = new Stats(full, clusters.size(), store.queue().groups().size(), tested, attempted, placed);
        lastTestingNanos = snapshot.testingNanos();
        if (full) {
            LOG.debug("whole queue tried: {}", last);
        }
    }

    /** Whether a waiting ask fits a cluster in scope; one that cannot be tested has its gangs attempted one by one. */
    private boolean fits(PlacementQueue.Group group, PlanningSnapshot snapshot) {
        try {
            return snapshot.fits(group, budget(group.queue()));
        } catch (RuntimeException | StackOverflowError e) {
            LOG.warn(
                    "an ask of {} waiting gangs could not be tested; each is attempted alone: {}",
                    store.queue().waiting(group).size(),
                    e.toString());
            return true; // one that fails is failed alone, with the reason
        }
    }

    /**
     * The placed gangs whose change adds pods: planned on their own cluster, within what one more gang of their queue
     * may take; forwarded when they fit, refused with the reason when not (a running gang is never failed for it).
     */
    private void resizes(PlanningSnapshot snapshot) {
        for (String uid : store.queue().takeResizes()) {
            try {
                quarantine.unit(() -> updates.growth(uid).ifPresent(growth -> {
                    Decision fit = snapshot.plan(
                            growth.added(),
                            snapshot.fleet().only(growth.cluster()),
                            fairShare.budget(growth.record().target().namespace()));
                    updates.grown(growth, fit);
                    snapshot.taken();
                }));
            } catch (RuntimeException | StackOverflowError e) {
                LOG.error("{}: its change could not be planned", uid, e);
                snapshot.taken();
            }
        }
    }

    /** Every waiting gang grouped again by what it asks now (the definitions may have changed since its attempt). */
    private void regroup() {
        for (PlacementQueue.Group group : List.copyOf(store.queue().groups())) {
            for (PlacementQueue.Key key : List.copyOf(store.queue().waiting(group))) {
                Optional<HubObject> object = store.object(key.uid());
                Optional<PlacementRecord> record = store.placement(key.uid());
                DemandCache.Asked now =
                        object.isPresent() ? demands.demand(object.get(), interpreter.get()) : group.ask();
                if (now instanceof Gang gang && record.isPresent()) {
                    PlacementQueue.Group regrouped = group(record.get(), gang);
                    if (!regrouped.equals(group)) {
                        store.queue().waits(key.uid(), regrouped);
                    }
                } else if (!(now instanceof Gang)) {
                    store.queue().enter(key.uid()); // its attempt fails it, with the reason
                }
            }
        }
    }

    /** Attempts one queued gang alone: empty when it was not attempted, else whether it was placed. */
    private Optional<Boolean> attempt(String uid, PlanningSnapshot snapshot) {
        Optional<PlacementRecord> p = store.placement(uid).filter(r -> r.state() == State.QUEUED);
        Optional<HubObject> object = store.object(uid);
        if (p.isEmpty() || object.isEmpty() || object.get().deleting()) {
            return Optional.empty(); // stays as it is: its object is on its way, or it is being deleted
        }
        PlanningFleet whole = snapshot.fleet(); // a view that cannot be built is no one gang's fault
        boolean[] placed = {false};
        try {
            quarantine.unit(() -> {
                long started = observer.started();
                DecisionObserver.Outcome outcome = decide(p.get(), object.get(), whole, snapshot);
                observer.decided(outcome, started);
                placed[0] = outcome == DecisionObserver.Outcome.PLACED;
            });
            if (placed[0]) {
                snapshot.taken(); // it booked nodes: the next one plans on what is left
            }
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("{}: could not be planned", p.get().target(), e);
            snapshot.taken();
            try {
                submission.fail(p.get(), object.get(), "could not be planned: " + e, EventReason.Invalid);
            } catch (RuntimeException | StackOverflowError again) {
                LOG.error("{}: could not record why it failed", p.get().target(), again);
            }
        }
        return Optional.of(placed[0]);
    }

    /** One gang's attempt: failed, held, waiting for a dependency, placed (preempting if it must), or waiting. */
    private DecisionObserver.Outcome decide(
            PlacementRecord p, HubObject object, PlanningFleet whole, PlanningSnapshot snapshot) {
        Instant now = clock.instant();
        store.queue().attempted(p.uid());
        DemandCache.Asked asked = demands.demand(object, interpreter.get());
        if (asked instanceof DemandCache.Asked.Invalid invalid) {
            submission.fail(p, object, invalid.reason(), invalid.why());
            return DecisionObserver.Outcome.FAILED;
        }
        Gang gang = (Gang) asked;
        if (demands.needs(object, interpreter.get()).suspended()) {
            submission.hold(p, object);
            return DecisionObserver.Outcome.SUSPENDED;
        }
        Optional<String> missing = dependencies.missing(object);
        if (missing.isPresent()) { // not grouped with the gangs waiting for room: tried again when a dependency changes
            waiting.waits(p, object, missing::get, EventReason.MissingDependency, now);
            return DecisionObserver.Outcome.WAITING_FOR_DEPENDENCY;
        }
        PlanningFleet scope = whole.without(p.refusals().keySet());
        GpuBudget budget = fairShare.budget(p.target().namespace());
        Decision decision = plan(p, gang, scope, budget, snapshot);
        store.decided(p.uid(), decision);
        if (decision instanceof Decision.Placed placed) {
            return landed(p, object, binding.land(p, object, gang, placed, List.of()));
        }
        Optional<Preemption.Plan> preemption = preempting.plan(p, gang, scope);
        if (preemption.isPresent()) { // victims and preemptor are durable together, or nothing happens
            List<PlacementRecord> victims = preempting.requeued(preemption.get());
            store.decided(p.uid(), preemption.get().placed());
            Optional<String> refused =
                    binding.land(p, object, gang, preemption.get().placed(), victims);
            if (refused.isEmpty()) {
                preempting.preempted(preemption.get(), victims);
            }
            return landed(p, object, refused);
        }
        store.queue().waits(p.uid(), group(p, gang));
        waiting.waits(p, object, () -> waiting.reason(decision, p), EventReason.Unschedulable, now);
        return DecisionObserver.Outcome.WAITING;
    }

    /** Placed, or failed when its copy could not be sent at all (larger than a command may be): nothing was reserved. */
    private DecisionObserver.Outcome landed(PlacementRecord p, HubObject object, Optional<String> refused) {
        if (refused.isEmpty()) {
            return DecisionObserver.Outcome.PLACED;
        }
        submission.fail(p, object, refused.get(), EventReason.Invalid);
        return DecisionObserver.Outcome.FAILED;
    }

    /**
     * Where the gang goes: on the cluster where a copy of it waits (suspended there, by the user or a preemption) when
     * it fits there, since resuming a copy is cheaper than moving it; else where the planner places it, but not on the
     * cluster that could not start it when anywhere else will do.
     */
    private Decision plan(
            PlacementRecord p, Gang gang, PlanningFleet scope, GpuBudget budget, PlanningSnapshot snapshot) {
        if (p.cluster().isPresent()) {
            Decision home = snapshot.plan(gang, scope.only(p.cluster().get()), budget);
            if (home instanceof Decision.Placed) {
                return home;
            }
        }
        Decision decision = snapshot.plan(gang, scope, budget);
        Optional<String> avoided = store.avoided(p.uid());
        if (avoided.isPresent() && decision.chosen().equals(avoided)) { // it could not start there: anywhere else first
            Decision elsewhere = snapshot.plan(gang, scope.without(avoided.get()), budget);
            return elsewhere instanceof Decision.Placed ? elsewhere : decision;
        }
        return decision;
    }

    /** The group a queued placement waits in: what it asks, in its queue. */
    private PlacementQueue.Group group(PlacementRecord p, Gang gang) {
        return new PlacementQueue.Group(fairShare.queueOf(p.target().namespace()), gang);
    }

    /** What one more gang of the queue may take now. */
    private GpuBudget budget(String queue) {
        return fairShare.on() ? fairShare.quotas().budget(queue) : GpuBudget.NONE;
    }
}
