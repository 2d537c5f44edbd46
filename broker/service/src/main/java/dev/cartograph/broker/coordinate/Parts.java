package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.fleet.Fleet;
import dev.cartograph.interpreter.Interpreter;
import java.time.Clock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The coordinator's parts, wired once: the fleet, the {@link PlacementStore}, and the named parts that handle each input on the
 * coordinator's thread ({@link Coordinator} says which does what). The coordinator owns the thread, the inbox and the
 * published view; these own the state. Coordinator thread only.
 */
final class Parts {
    final Fleet fleet = new Fleet();
    /** The coordinator's thread, enforced on the state it owns. */
    final WriterThread thread = new WriterThread();

    final PlacementStore store;
    final Effects effects;
    final DemandCache demands;
    final Forwarding forwarding;
    final StatusMirror mirror;
    final Fencing fencing;
    final Submission submission;
    final Preempting preempting;
    final Failover failover;
    final Deletion deletion;
    final AgentReports reports;
    final Updates updates;
    final HubObjects hubObjects;
    final Quarantine quarantine;
    final Leadership leadership;
    final SchedulingCycle cycle;
    final FairShare fairShare;

    /**
     * @param interpreter  the definitions now (they change while the broker runs)
     * @param active       whether this instance may act (leader, caught up)
     * @param fenced       a newer leader refused this one's write
     * @param becameActive this instance has just become active
     * @param forget       forget everything about a placement, in every part
     */
    Parts(
            BrokerSettings settings,
            Outbox outbox,
            Hub hub,
            Clock clock,
            HubDependencies dependencies,
            DecisionObserver observer,
            Supplier<Interpreter> interpreter,
            BooleanSupplier active,
            Runnable fenced,
            Runnable becameActive,
            Consumer<String> forget) {
        this.fairShare = new FairShare(fleet, clock, settings.heartbeatTimeout());
        this.effects = new Effects(outbox, hub, active, fenced, thread);
        this.store = new PlacementStore(thread, effects, fleet, fairShare);
        this.leadership = new Leadership(!settings.leaderElection(), outbox, effects, clock, becameActive);
        this.demands = new DemandCache(settings.maxPodsPerGang(), settings.podSecurity(), store);
        DependencyCopies copies = new DependencyCopies(dependencies, demands, interpreter);
        this.forwarding = new Forwarding(store, effects, clock, copies, interpreter);
        this.mirror = new StatusMirror(store, effects, clock);
        this.fencing = new Fencing(store, effects, clock);
        this.submission = new Submission(store, demands, effects, clock, interpreter);
        this.failover = new Failover(settings, store, fleet, forwarding, mirror, effects, clock);
        this.deletion = new Deletion(settings, store, fleet, forwarding, effects, clock, forget);
        Suspension suspension = new Suspension(store, demands, forwarding, submission, effects, clock, interpreter);
        this.updates = new Updates(store, demands, forwarding, mirror, effects, clock, interpreter, suspension);
        this.hubObjects = new HubObjects(store, active, submission, deletion, updates, suspension, effects);
        this.reports =
                new AgentReports(settings, fleet, store, fencing, mirror, deletion, failover, updates, effects, clock);
        this.quarantine = new Quarantine(store, submission, effects);
        this.preempting = new Preempting(settings, store, fleet, fairShare, forwarding, effects, clock, interpreter);
        this.cycle = new SchedulingCycle(
                settings,
                store,
                fleet,
                fairShare,
                demands,
                copies,
                submission,
                updates,
                new Waiting(store, effects),
                preempting,
                new Binding(store, fleet, forwarding, effects, clock, interpreter),
                quarantine,
                observer,
                clock,
                interpreter);
    }
}
