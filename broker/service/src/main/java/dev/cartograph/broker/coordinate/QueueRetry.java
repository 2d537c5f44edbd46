package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.DemandCache.Asked.Gang;
import dev.cartograph.placement.Decision;
import dev.cartograph.placement.PlanningFleet;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tries queued gangs again when capacity changes, without planning every gang against the whole
 * fleet. Capacity changes one cluster at a time (a summary whose nodes changed, a reservation
 * released, a cluster whose readiness flipped), and a gang that fitted nowhere can only be placed
 * now if it fits a cluster that changed. So each distinct ask of the waiting gangs ({@link PlacementQueue})
 * is planned once against the changed clusters alone; the gangs of the asks that fit there, and the
 * gangs new to the queue, are attempted against the whole fleet, in queue order, as before (a gang
 * that fits is placed; one that throws is failed alone). A placement takes capacity: an attempt that
 * finds no room closes its ask for the rest of the retry.
 *
 * <p>The whole queue is tried the same way (every ask against every cluster) when something no one
 * cluster explains changed — new definitions, this instance became active — and at most every
 * {@link #FULL_RETRY} on the clock's tick, as a safety net: nothing waits for ever because a signal
 * was missed. Coordinator thread only.
 */
final class QueueRetry {
    private static final Logger LOG = LoggerFactory.getLogger(QueueRetry.class);
    /** The whole queue is tried again at least this often (on a tick), whatever changed. */
    static final Duration FULL_RETRY = Duration.ofSeconds(60);

    /**
     * What one retry did, for benchmarks and logs: how many clusters had changed, how many distinct asks
     * wait (after it), how many were tested, how many gangs were attempted on the whole fleet and placed.
     */
    record Stats(boolean full, int clusters, int asks, int asksTested, int attempted, int placed) {
        static final Stats NONE = new Stats(false, 0, 0, 0, 0, 0);
    }

    private final PlacementStore store;
    private final Placing placing;
    private final FairShare fairShare;
    private final Quarantine quarantine;
    private final Clock clock;
    private final Set<String> changed = new TreeSet<>();
    private boolean everything = true;
    private Instant lastFull = Instant.MIN;
    private Stats last = Stats.NONE;
    private long lastTestingNanos;

    QueueRetry(PlacementStore store, Placing placing, FairShare fairShare, Quarantine quarantine, Clock clock) {
        this.quarantine = quarantine;
        this.store = store;
        this.placing = placing;
        this.fairShare = fairShare;
        this.clock = clock;
    }

    /** Capacity or readiness changed on this cluster. */
    void changed(String cluster) {
        changed.add(cluster);
    }

    /** Something changed that no one cluster explains: the next retry tries the whole queue. */
    void changedEverywhere() {
        everything = true;
    }

    /** The clock's tick: the whole queue is due again when it was last tried {@link #FULL_RETRY} ago. */
    void tick() {
        if (!clock.instant().isBefore(lastFull.plus(FULL_RETRY))) {
            everything = true;
        }
    }

    /** Whether a retry has anything to do (the clusters where reservations were released count as changed). */
    boolean due() {
        changed.addAll(store.takeFreed());
        return everything || !changed.isEmpty() || !store.queue().fresh().isEmpty();
    }

    Stats last() {
        return last;
    }

    /** Time the last retry spent testing asks on the clusters in scope (its planning views included), for benchmarks. */
    long lastTestingNanos() {
        return lastTestingNanos;
    }

    /** Tries again the gangs that could now fit somewhere, in queue order. */
    void run() {
        boolean full = everything;
        Set<String> clusters = Set.copyOf(changed);
        everything = false;
        changed.clear();
        if (full) {
            lastFull = clock.instant();
            regroup();
        }
        Attempts attempts = new Attempts(full ? null : clusters);
        RetryOrder next = new RetryOrder(fairShare);
        int tested = 0;
        if (full || !clusters.isEmpty()) {
            for (PlacementQueue.Group group : List.copyOf(store.queue().groups())) {
                tested++;
                if (attempts.fits(group)) {
                    next.put(group.queue(), store.queue().waiting(group).first(), Optional.of(group));
                }
            }
        }
        for (String uid : List.copyOf(store.queue().fresh())) {
            String queue = store.placement(uid)
                    .map(p -> fairShare.queueOf(p.target().namespace()))
                    .orElse(dev.cartograph.fairshare.QueueSpec.DEFAULT);
            next.put(queue, store.queue().key(uid), Optional.empty());
        }
        while (!next.isEmpty()) {
            Map.Entry<PlacementQueue.Key, Optional<PlacementQueue.Group>> e = next.poll();
            Optional<PlacementQueue.Group> group = e.getValue();
            if (group.isPresent() && !attempts.stillFits(group.get())) {
                continue; // what was placed since took the room it had: the rest of its gangs wait
            }
            NavigableSet<PlacementQueue.Key> waiting =
                    group.map(g -> store.queue().waiting(g)).orElse(java.util.Collections.emptyNavigableSet());
            PlacementQueue.Key after = waiting.higher(e.getKey());
            attempts.attempt(e.getKey().uid());
            boolean closed =
                    group.isPresent() && store.queue().groupOf(e.getKey().uid()).equals(group);
            if (!closed && after != null) {
                next.put(group.get().queue(), after, group);
            }
        }
        last = new Stats(full, clusters.size(), store.queue().groups().size(), tested, attempts.count, attempts.placed);
        lastTestingNanos = attempts.testingNanos;
        if (full) {
            LOG.debug("whole queue tried: {}", last);
        }
    }

    /** Every waiting gang grouped again by what it asks now (the definitions may have changed since it was attempted). */
    private void regroup() {
        for (PlacementQueue.Group group : List.copyOf(store.queue().groups())) {
            for (PlacementQueue.Key key : List.copyOf(store.queue().waiting(group))) {
                Optional<HubObject> object = store.object(key.uid());
                Optional<PlacementRecord> record = store.placement(key.uid());
                DemandCache.Asked now = object.isPresent() ? placing.ask(object.get()) : group.ask();
                if (now instanceof Gang gang && record.isPresent()) {
                    PlacementQueue.Group regrouped = placing.group(record.get(), gang);
                    if (!regrouped.equals(group)) {
                        store.queue().waits(key.uid(), regrouped);
                    }
                } else if (!(now instanceof Gang)) {
                    store.queue().enter(key.uid()); // its attempt fails it, with the reason
                }
            }
        }
    }

    /**
     * Attempts against the whole fleet, each failure alone, and tests of asks against the clusters in
     * scope (every cluster when {@code scope} is null) by
     * the planner. The planning view is built again after each placement, and an ask tested before it
     * is tested again.
     */
    private final class Attempts {
        private final Set<String> scope;
        private PlanningFleet planning;
        private PlanningFleet inScope;
        private final Map<PlacementQueue.Group, Integer> testedAt = new java.util.HashMap<>();
        private int version;
        int count;
        int placed;
        long testingNanos;

        Attempts(Set<String> scope) {
            this.scope = scope;
        }

        PlanningFleet planning() {
            if (planning == null) {
                planning = placing.planningView();
                inScope = scope == null
                        ? planning
                        : new PlanningFleet(planning.clusters().stream()
                                .filter(c -> scope.contains(c.name()))
                                .toList());
            }
            return planning;
        }

        /** Whether the group's ask fits some cluster in scope now, within its queue's budget. */
        boolean fits(PlacementQueue.Group ask) {
            long start = System.nanoTime();
            try {
                return fitsNow(ask);
            } finally {
                testingNanos += System.nanoTime() - start;
            }
        }

        private boolean fitsNow(PlacementQueue.Group ask) {
            planning();
            testedAt.put(ask, version);
            try {
                // the planner refuses a cluster short of GPU blocks before placing any pod, so testing is cheap
                return !inScope.clusters().isEmpty()
                        && placing.plan(ask.ask(), inScope, placing.budget(ask.queue())) instanceof Decision.Placed;
            } catch (RuntimeException | StackOverflowError e) {
                LOG.warn(
                        "an ask of {} waiting gangs could not be tested; each is attempted alone: {}",
                        store.queue().waiting(ask).size(),
                        e.toString());
                return true; // its gangs are attempted one by one, and one that fails is failed alone, with the reason
            }
        }

        /** Whether the ask still fits: tested again when something was placed since it was. */
        boolean stillFits(PlacementQueue.Group ask) {
            return testedAt.getOrDefault(ask, -1) == version || fits(ask);
        }

        void attempt(String uid) {
            Optional<PlacementRecord> p = store.placement(uid).filter(r -> r.state() == State.QUEUED);
            Optional<HubObject> object = store.object(uid);
            if (p.isEmpty() || object.isEmpty() || object.get().deleting()) {
                return; // stays as it is: its object is on its way, or it is being deleted
            }
            count++;
            PlanningFleet view = planning(); // a view that cannot be built is no one gang's fault
            try {
                boolean[] placedNow = {false};
                quarantine.unit(() -> placedNow[0] = placing.attempt(p.get(), object.get(), view));
                if (placedNow[0]) {
                    placed++;
                    changed(); // it booked nodes: the next one plans on what is left
                }
            } catch (RuntimeException | StackOverflowError e) {
                LOG.error("{}: could not be planned", p.get().target(), e);
                changed();
                try {
                    placing.fail(p.get(), object.get(), "could not be planned: " + e, EventReason.Invalid);
                } catch (RuntimeException | StackOverflowError again) {
                    LOG.error("{}: could not record why it failed", p.get().target(), again);
                }
            }
        }

        private void changed() {
            planning = null;
            version++;
        }
    }
}
