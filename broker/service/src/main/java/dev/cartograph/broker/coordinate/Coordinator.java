package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.broker.usage.UsageAccounting;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.protocol.WorkloadSummary;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's one writer. Every input (agent records, placement records, hub objects, the lease,
 * the clock) is queued and handled in order on one thread, which owns fleet state, placements and
 * the queue. A batch is: each input handled in order (each as one unit, {@link Quarantine}), then the scheduling
 * cycle ({@link SchedulingCycle}: every submission, with or without Queues, and the queued gangs that could fit where
 * capacity changed), then the batch's effects carried out at once ({@link Effects#commit}: records and commands in
 * one durable write, then hub writes) — or, when that fails, the batch undone ({@link PlacementStore#undo}) — and
 * last an immutable {@link BrokerView} published. The work is done by named parts on that thread:
 * {@link HubObjects} (a hub object changed or went away), {@link Submission},
 * {@link Updates}, {@link StatusMirror}, {@link Fencing}, {@link Failover}, {@link Deletion}; what is known of each
 * placement lives in the {@link PlacementStore}.
 *
 * <p>Rules (ADR 0004, ADR 0005, ADR 0008): a decision is durable (placements topic) together with its command; its
 * demand is reserved on the chosen nodes until the agent accounts for it; only an active instance (leader, caught up
 * with every topic) decides or writes, and losing the lease stops writes at once, not when the input reaches the
 * front of the inbox (the batch it was lost in is undone); one input that fails — a hostile object, an absurd record
 * — is undone, then failed or skipped alone with a reason, and the loop goes on.
 */
public final class Coordinator implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    /** Inputs waiting beyond this block their producers (Kafka ingest, the hub watch) until the coordinator catches up. */
    static final int INBOX_CAPACITY = 100_000;

    private final Clock clock;
    private final PriorityClasses priorityClasses;
    private final BlockingQueue<Input> inbox = new LinkedBlockingQueue<>(INBOX_CAPACITY);
    private final AtomicReference<BrokerView> view = new AtomicReference<>(BrokerView.EMPTY);
    private final AtomicBoolean running = new AtomicBoolean(true);

    private Interpreter interpreter;
    private long poison;
    /** The parts that do the work, all on this thread. */
    private final Parts parts;

    private UsageAccounting usage = UsageAccounting.off();
    /** Placements whose batch was undone: handled again at the next tick. */
    private final java.util.Set<String> redo = new java.util.LinkedHashSet<>();

    public Coordinator(BrokerSettings settings, Interpreter interpreter, Outbox outbox, Hub hub, Clock clock) {
        this(
                settings,
                interpreter,
                outbox,
                hub,
                clock,
                PriorityClasses.NONE,
                HubDependencies.NONE,
                DecisionObserver.NONE);
    }

    /**
     * @param priorityClasses the hub's PriorityClasses (name → value), for workloads that name one
     * @param dependencies    the hub's ConfigMaps, Secrets, ServiceAccounts and claims, copied to members with the
     *                        gangs that need them
     * @param observer        told how each placement attempt ended and how long it took (metrics)
     */
    public Coordinator(
            BrokerSettings settings,
            Interpreter interpreter,
            Outbox outbox,
            Hub hub,
            Clock clock,
            PriorityClasses priorityClasses,
            HubDependencies dependencies,
            DecisionObserver observer) {
        this.interpreter = interpreter;
        this.clock = clock;
        this.priorityClasses = priorityClasses;
        this.parts = new Parts(
                settings,
                outbox,
                hub,
                clock,
                dependencies,
                observer,
                () -> this.interpreter,
                this::active,
                this::fenced,
                this::becameActive,
                this::forget);
    }

    /** Queues an input; blocks while the inbox is full (back-pressure on the reader that produced it). */
    public void post(Input input) {
        try {
            inbox.put(input);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * This instance gained or lost the leader lease. Losing it stops writes at once — a deposed
     * leader writes nothing more, whatever is still in its inbox; gaining it takes effect when the
     * input is handled (after the reservations recorded so far are held again). Thread-safe.
     */
    public void leading(boolean now) {
        leading(now, 0);
    }

    /** {@link #leading(boolean)} in leader term {@code term} (the hub Lease's transitions), stamped on every record written. */
    public void leading(boolean now, long term) {
        parts.leadership.lease(now);
        post(new Input.Leading(now, term));
    }

    /**
     * How a new leader reads what the previous one committed before it acts: {@code mark.accept(id)}
     * must lead to {@link Input.Marked}{@code (id)} once every record committed up to that moment has
     * been read (the Kafka ingest's {@code Ingest.mark}). Without it (tests),
     * the mark is taken at once. Call before {@link #run}.
     */
    public void catchUpWith(LongConsumer mark) {
        parts.leadership.catchUpWith(mark);
    }

    /** Counts GPU time while this instance is active, at every tick (ADR 0006). Call before {@link #run}. */
    public void account(UsageAccounting usage) {
        this.usage = usage;
    }

    public BrokerView view() {
        return view.get();
    }

    /** Counts a record that could not be decoded (the ingest skips it). */
    public void poisonRecord() {
        post(new Input.Call(() -> poison++));
    }

    @Override
    public void run() {
        List<Input> batch = new ArrayList<>();
        while (running.get()) {
            try {
                Input first = inbox.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                inbox.drainTo(batch, 500);
                step(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | StackOverflowError e) {
                LOG.error(
                        "coordinator batch failed; going on with the next", e); // step guards each input: this is a bug
            } finally {
                batch.clear();
            }
        }
        usage.tick(clock.instant(), false, java.util.Map::of); // stopping: what was counted is written
    }

    /**
     * Handles one batch in order, tries again the queued gangs that could fit where capacity changed,
     * publishes the view (the loop's body; tests call it directly).
     */
    void step(List<Input> batch) {
        parts.thread.enter();
        try {
            parts.store.begin();
            handleAll(batch);
            if (parts.effects.commit()) {
                parts.store.committed();
            } else { // nothing of the batch went out: it is undone, and what it changed is handled again
                redo.addAll(parts.store.touchedBy());
                parts.store.undo(); // what it had released is reserved again: the store reports where
            }
            publish();
        } finally {
            parts.thread.exit();
        }
    }

    private void handleAll(List<Input> batch) {
        for (Input input : batch) {
            parts.quarantine.guard(input, () -> handle(input));
        }
        if (parts.fairShare.released()) {
            parts.cycle.changedEverywhere(); // gangs that waited for quota may fit on any cluster now
        }
        if (active() && parts.cycle.due()) {
            parts.cycle.run();
        }
    }

    /**
     * The placements of batches that were undone, handled again at the next tick (level-triggered: their hub objects
     * are offered again; the clock's work re-reads the rest).
     */
    private void handleAgain() {
        List<String> uids = List.copyOf(redo);
        redo.clear();
        for (String uid : uids) {
            parts.store.object(uid).ifPresent(object -> {
                Input again = new Input.HubChanged(object.raw());
                parts.quarantine.guard(again, () -> handle(again));
            });
        }
    }

    /** The queue's retry, for what its last run did (tests and benchmarks). */
    SchedulingCycle cycle() {
        return parts.cycle;
    }

    private void handle(Input input) {
        if (input instanceof Input.Cluster c) {
            parts.reports
                    .cluster(c.summary(), c.changedNodes(), parts.leadership.caughtUp())
                    .ifPresent(cluster -> {
                        parts.cycle.changed(cluster);
                        parts.fairShare.capacityChanged();
                    });
        } else if (input instanceof Input.Workload w) {
            parts.reports.workload(w.key(), w.summary());
        } else if (input instanceof Input.Result r) {
            parts.reports.result(r.result());
        } else if (input instanceof Input.DependencyChanged d) {
            if (active()) {
                parts.updates.dependencyChanged(d);
            }
        } else if (input instanceof Input.Placement p) {
            if (!active()) {
                parts.store.replayed(
                        p.uid(), p.record()); // while active, this instance wrote it: what it reads back is its own
            }
        } else if (input instanceof Input.CaughtUp) {
            LOG.info(
                    "caught up with every topic: {} placements, {} clusters",
                    parts.store.placements().size(),
                    parts.fleet.clusters().size());
            parts.leadership.caughtUpWithStart();
        } else if (input instanceof Input.Marked m) {
            parts.leadership.marked(m.id());
        } else if (input instanceof Input.HubChanged h) {
            HubObject.parse(h.object(), priorityClasses, clock.instant()).ifPresent(parts.hubObjects::changed);
        } else if (input instanceof Input.HubDeleted h) {
            HubObject.parse(h.object(), priorityClasses, clock.instant()).ifPresent(parts.hubObjects::deleted);
        } else if (input instanceof Input.Leading l) {
            parts.leadership.changed(l.leading(), l.term());
        } else if (input instanceof Input.Definitions d) {
            interpreter = Interpreter.of(d.definitions());
            LOG.info("definitions changed: {} kinds", d.definitions().size());
            parts.cycle.changedEverywhere(); // queued gangs are interpreted again, and tried on every cluster
        } else if (input instanceof Input.Queues q) {
            parts.fairShare.queues(q, parts.store);
            parts.cycle.changedEverywhere(); // every gang's queue, budget and turn may have changed
        } else if (input instanceof Input.Tick) {
            usage.tick(clock.instant(), active(), () -> parts.fairShare.holdings(parts.store));
            if (active()) {
                handleAgain();
                parts.failover.tick(parts.leadership.activeSince()).forEach(parts.cycle::changed);
                parts.preempting.resendUnanswered(clock.instant());
                parts.deletion.retryWhereNotReady();
                parts.reports.fenceStale();
                parts.cycle.tick();
            } else {
                parts.leadership.tryActivate();
            }
        } else if (input instanceof Input.Call c) {
            c.action().run();
        }
    }

    private boolean active() {
        return parts.leadership.active();
    }

    private void fenced() {
        parts.leadership.fenced();
    }

    /**
     * What this instance does once it leads and has caught up with every topic: hold again what the recorded
     * placements reserved, match member copies read before their placement records, act on every hub object, and try
     * the whole queue.
     */
    private void becameActive() {
        parts.fairShare.recount(parts.store); // the fleet knows every cluster's nodes now, so each GPU's model
        parts.store.holdRecordedReservations();
        for (WorkloadSummary s : List.copyOf(parts.store.copies())) {
            parts.reports.copy(s, Optional.empty()); // summaries read before their placement records: matched now
        }
        for (HubObject object : parts.store.objects()) {
            parts.hubObjects.changed(object); // acted on as this instance now leads
        }
        parts.cycle.changedEverywhere();
    }

    /** Forgets everything about a placement, in every part (its hub object is gone, or is about to be). */
    private void forget(String uid) {
        parts.store.forget(uid);
        parts.store.release(uid);
    }

    private void publish() {
        view.set(new BrokerView(
                parts.fleet.snapshot(),
                parts.store.placementsView(),
                parts.store.queue().uids(),
                parts.store.decisionsView(),
                parts.store.membersView(),
                parts.leadership.leading(),
                parts.leadership.caughtUp(),
                poison,
                parts.quarantine.count(),
                parts.fairShare.report(parts.store),
                clock.instant()));
    }

    @Override
    public void close() {
        running.set(false);
    }
}
