package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.broker.usage.UsageAccounting;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
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
 * the queue; after each batch it publishes an immutable {@link BrokerView}. The work is done by named
 * parts on that thread: {@link HubObjects} (a hub object changed or went away), {@link Placing} (submit, plan, queue),
 * {@link QueueRetry} (the queued gangs that could fit where capacity changed, tried again after each batch),
 * {@link Updates}, {@link StatusMirror}, {@link Fencing},
 * {@link Failover}, {@link Deletion}; placements live in the {@link Book}; every outside effect goes
 * through {@link Effects} or {@link Book#write}, which act only while this instance is active.
 *
 * <p>Rules (ADR 0004, docs/adr/0005-failure-model.md): a decision is durable (placements topic)
 * before its command is sent; its demand is reserved on the chosen nodes until the agent accounts for
 * it; only an active instance (leader, caught up with every topic) decides or writes, and losing the
 * lease stops writes at once, not when the input reaches the front of the inbox; one input that fails
 * — a hostile object, an absurd record — is failed or skipped alone with a reason, and the loop goes on.
 */
public final class Coordinator implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    /** Inputs waiting beyond this block their producers (Kafka ingest, the hub watch) until the coordinator catches up. */
    static final int INBOX_CAPACITY = 100_000;

    private final BrokerSettings settings;
    private final Clock clock;
    private final PriorityClasses priorityClasses;
    private final BlockingQueue<Input> inbox = new LinkedBlockingQueue<>(INBOX_CAPACITY);
    private final AtomicReference<BrokerView> view = new AtomicReference<>(BrokerView.EMPTY);
    private final AtomicBoolean running = new AtomicBoolean(true);

    private Interpreter interpreter;
    private final Fleet fleet = new Fleet();
    private final Book book;
    private final Effects effects;
    private final DemandCache demands;
    private final Forwarding forwarding;
    private final StatusMirror mirror;
    private final Fencing fencing;
    private final Placing placing;
    private final Failover failover;
    private final Deletion deletion;
    private final AgentReports reports;
    private final Updates updates;
    private final HubObjects hubObjects;
    private final Quarantine quarantine;
    private long poison;
    private final Leadership leadership;
    private final QueueRetry retry;
    private final FairShare fairShare;
    /** Runs when this instance becomes active (leader and caught up). */
    private final Takeover takeover;

    private UsageAccounting usage = UsageAccounting.off();

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
        this.settings = settings;
        this.interpreter = interpreter;
        this.clock = clock;
        this.priorityClasses = priorityClasses;
        this.fairShare = new FairShare(fleet, clock, settings.heartbeatTimeout());
        this.book = new Book(outbox, this::active, this::fenced, fairShare);
        this.leadership = new Leadership(!settings.leaderElection(), outbox, book, clock, this::becameActive);
        this.effects = new Effects(outbox, hub, this::active);
        this.demands = new DemandCache(settings.maxPodsPerGang(), settings.podSecurity());
        DependencyCopies copies = new DependencyCopies(dependencies, demands, () -> this.interpreter);
        this.forwarding = new Forwarding(book, effects, clock, copies);
        this.mirror = new StatusMirror(effects, clock);
        this.fencing = new Fencing(effects, clock);
        this.placing = new Placing(
                settings,
                book,
                fleet,
                demands,
                forwarding,
                mirror,
                effects,
                clock,
                () -> this.interpreter,
                copies,
                this::freed,
                observer,
                fairShare);
        this.failover = new Failover(settings, book, fleet, forwarding, mirror, effects, clock);
        this.deletion = new Deletion(settings, book, fleet, forwarding, effects, clock, this::forget);
        Suspension suspension =
                new Suspension(book, fleet, demands, forwarding, placing, effects, clock, () -> this.interpreter);
        this.updates = new Updates(
                settings,
                book,
                fleet,
                demands,
                forwarding,
                mirror,
                effects,
                clock,
                () -> this.interpreter,
                suspension,
                placing::budgetOf);
        this.hubObjects = new HubObjects(book, this::active, placing, deletion, updates, suspension, effects);
        this.reports =
                new AgentReports(settings, fleet, book, fencing, mirror, deletion, failover, updates, effects, clock);
        this.quarantine = new Quarantine(book, placing, effects);
        this.retry = new QueueRetry(book, placing, fairShare, clock);
        this.takeover = new Takeover(book, fleet, reports, hubObjects, retry);
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
        leadership.lease(now);
        post(new Input.Leading(now, term));
    }

    /**
     * How a new leader reads what the previous one committed before it acts: {@code mark.accept(id)}
     * must lead to {@link Input.Marked}{@code (id)} once every record committed up to that moment has
     * been read (the Kafka ingest's {@code Ingest.mark}). Without it (tests),
     * the mark is taken at once. Call before {@link #run}.
     */
    public void catchUpWith(LongConsumer mark) {
        leadership.catchUpWith(mark);
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
        for (Input input : batch) {
            quarantine.guard(input, () -> handle(input));
        }
        if (fairShare.released()) {
            retry.changedEverywhere(); // gangs that waited for quota may fit on any cluster now
        }
        if (active() && retry.due()) {
            retry.run();
        }
        publish();
    }

    /** The queue's retry, for what its last run did (tests and benchmarks). */
    QueueRetry retry() {
        return retry;
    }

    private void handle(Input input) {
        if (input instanceof Input.Cluster c) {
            reports.cluster(c.summary(), c.changedNodes(), leadership.caughtUp())
                    .ifPresent(cluster -> {
                        retry.changed(cluster);
                        fairShare.capacityChanged();
                    });
        } else if (input instanceof Input.Workload w) {
            reports.workload(w.key(), w.summary());
        } else if (input instanceof Input.Result r) {
            reports.result(r.result()).ifPresent(retry::changed);
        } else if (input instanceof Input.DependencyChanged d) {
            if (active()) {
                updates.dependencyChanged(d);
            }
        } else if (input instanceof Input.Placement p) {
            if (!active()) {
                book.replayed(
                        p.uid(), p.record()); // while active, this instance wrote it: what it reads back is its own
            }
        } else if (input instanceof Input.CaughtUp) {
            LOG.info(
                    "caught up with every topic: {} placements, {} clusters",
                    book.placements().size(),
                    fleet.clusters().size());
            leadership.caughtUpWithStart();
        } else if (input instanceof Input.Marked m) {
            leadership.marked(m.id());
        } else if (input instanceof Input.HubChanged h) {
            HubObject.parse(h.object(), priorityClasses, clock.instant())
                    .flatMap(hubObjects::changed)
                    .ifPresent(retry::changed);
        } else if (input instanceof Input.HubDeleted h) {
            HubObject.parse(h.object(), priorityClasses, clock.instant())
                    .flatMap(hubObjects::deleted)
                    .ifPresent(retry::changed);
        } else if (input instanceof Input.Leading l) {
            leadership.changed(l.leading(), l.term());
        } else if (input instanceof Input.Definitions d) {
            interpreter = Interpreter.of(d.definitions());
            LOG.info("definitions changed: {} kinds", d.definitions().size());
            retry.changedEverywhere(); // queued gangs are interpreted again, and tried on every cluster
        } else if (input instanceof Input.Queues q) {
            fairShare.queues(q, book);
            retry.changedEverywhere(); // every gang's queue, budget and turn may have changed
        } else if (input instanceof Input.Tick) {
            usage.tick(clock.instant(), active(), () -> fairShare.holdings(book));
            if (active()) {
                failover.tick(leadership.activeSince()).forEach(retry::changed);
                placing.resendSuspends();
                deletion.retryWhereNotReady();
                reports.fenceStale();
                retry.tick();
            } else {
                leadership.tryActivate();
            }
        } else if (input instanceof Input.Call c) {
            c.action().run();
        }
    }

    /** A failed gang gave back what it held on this cluster. */
    private void freed(String cluster) {
        retry.changed(cluster);
    }

    private boolean active() {
        return leadership.active();
    }

    private void fenced() {
        leadership.fenced();
    }

    private void becameActive() {
        fairShare.recount(book); // the fleet knows every cluster's nodes now, so each GPU's model
        takeover.run();
    }

    /** Forgets everything about a placement, in every part (its hub object is gone, or is about to be). */
    private void forget(String uid) {
        book.forget(uid);
        demands.forget(uid);
        mirror.forget(uid);
        fencing.forget(uid);
        placing.forget(uid);
        failover.forget(uid);
        updates.forget(uid);
        fleet.release(uid).ifPresent(r -> retry.changed(r.cluster()));
    }

    private void publish() {
        view.set(new BrokerView(
                fleet.snapshot(),
                book.placementsView(),
                book.queued().uids(),
                book.decisionsView(),
                book.membersView(),
                leadership.leading(),
                leadership.caughtUp(),
                poison,
                quarantine.count(),
                fairShare.report(book),
                clock.instant()));
    }

    @Override
    public void close() {
        running.set(false);
    }
}
