package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.broker.usage.UsageAccounting;
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
 * the queue. A batch is: each input handled in order, each as one unit ({@link Quarantine}), by the
 * {@link PlacementMachine} (what is observed is kept; what it does to its placement is decided by
 * {@link PlacementTransition} and carried out by the part the step names); then the {@link SchedulingCycle} (every
 * submission, with or without Queues, and the queued gangs that could fit where capacity changed); then the batch's
 * effects carried out at once ({@link Effects#commit}: records and commands in one durable write, then hub writes) —
 * or, when that fails, the batch undone ({@link PlacementStore#undo}) — and last an immutable {@link BrokerView}
 * published. What is known of each placement lives in the {@link PlacementStore}.
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
    private final BlockingQueue<Input> inbox = new LinkedBlockingQueue<>(INBOX_CAPACITY);
    private final AtomicReference<BrokerView> view = new AtomicReference<>(BrokerView.EMPTY);
    private final AtomicBoolean running = new AtomicBoolean(true);

    private long poison;
    /** The parts that do the work, all on this thread, around the placements' transitions. */
    private final PlacementMachine machine;

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
        this.clock = clock;
        this.machine = new PlacementMachine(
                settings, interpreter, outbox, hub, clock, priorityClasses, dependencies, observer);
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
        machine.leadership.lease(now);
        post(new Input.Leading(now, term));
    }

    /**
     * How a new leader reads what the previous one committed before it acts: {@code mark.accept(id)}
     * must lead to {@link Input.Marked}{@code (id)} once every record committed up to that moment has
     * been read (the Kafka ingest's {@code Ingest.mark}). Without it (tests),
     * the mark is taken at once. Call before {@link #run}.
     */
    public void catchUpWith(LongConsumer mark) {
        machine.leadership.catchUpWith(mark);
    }

    /**
     * How this instance gives its leader lease up when its writes are fenced although it leads
     * ({@link LeaderElection#resign}). Without it (no election), a fenced instance activates again. Call before {@link #run}.
     */
    public void resignWith(Runnable resign) {
        machine.leadership.resignWith(resign);
    }

    /** Counts GPU time while this instance is active, at every tick (ADR 0006). Call before {@link #run}. */
    public void account(UsageAccounting usage) {
        machine.account(usage);
    }

    /**
     * The leader term this instance acts in now, -1 while it does not act (a standby, one catching up, one deposed).
     * A hub write queued in one term is dropped when it is not this instance's acting term any more. Thread-safe.
     */
    public long actingTerm() {
        return machine.leadership.actingTerm();
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
        machine.usage().tick(clock.instant(), false, java.util.Map::of); // stopping: what was counted is written
    }

    /**
     * Handles one batch in order, tries again the queued gangs that could fit where capacity changed,
     * publishes the view (the loop's body; tests call it directly).
     */
    void step(List<Input> batch) {
        machine.thread.enter();
        try {
            machine.store.begin();
            handleAll(batch);
            if (machine.effects.commit()) {
                machine.store.committed();
            } else { // nothing of the batch went out: it is undone, and what it changed is handled again
                machine.undone(machine.store.touchedBy());
                machine.store.undo(); // what it had released is reserved again: the store reports where
            }
            publish();
        } finally {
            machine.thread.exit();
        }
    }

    private void handleAll(List<Input> batch) {
        for (Input input : batch) {
            machine.quarantine.guard(input, () -> machine.handle(input));
        }
        if (machine.fairShare.released()) {
            machine.cycle.changedEverywhere(); // gangs that waited for quota may fit on any cluster now
        }
        if (active() && machine.cycle.due()) {
            machine.cycle.run();
        }
    }

    /** The scheduling cycle, for what its last run did (tests and benchmarks). */
    SchedulingCycle cycle() {
        return machine.cycle;
    }

    private boolean active() {
        return machine.leadership.active();
    }

    private void publish() {
        view.set(new BrokerView(
                machine.fleet.snapshot(),
                machine.store.placementsView(),
                machine.store.queue().uids(),
                machine.store.decisionsView(),
                machine.store.membersView(),
                machine.leadership.leading(),
                machine.leadership.caughtUp(),
                poison,
                machine.quarantine.count(),
                machine.fairShare.report(machine.store),
                machine.recovered(),
                machine.placementsLost(),
                clock.instant()));
    }

    @Override
    public void close() {
        running.set(false);
    }
}
