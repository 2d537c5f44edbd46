package dev.cartograph.mock.fault;

import dev.cartograph.mock.rbac.RequestAttributes;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * The faults one server injects, changeable while it runs: the active {@link FaultRule}s, checked in the order they
 * were added before each request is served (before RBAC, as kube-apiserver's priority and fairness filter runs before
 * authorization; the first rule that fires answers), and the watch faults (expiry, compaction). With no rule the check
 * costs one volatile read. Thread-safe.
 */
public final class Faults {
    private final Clock clock;
    private final WatchControl watches;
    private final CopyOnWriteArrayList<ActiveFault> rules = new CopyOnWriteArrayList<>();

    /** @param clock what a rule's duration is measured with */
    public Faults(Clock clock, WatchControl watches) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.watches = Objects.requireNonNull(watches, "watches");
    }

    /** Makes {@code rule} active, after the rules already active. */
    public ActiveFault add(FaultRule rule) {
        ActiveFault active = new ActiveFault(rule, clock);
        rules.add(active);
        return active;
    }

    /** Deactivates {@code fault}; false when it was not active here. */
    public boolean remove(ActiveFault fault) {
        fault.remove();
        return rules.remove(fault);
    }

    /** Deactivates every rule (watch expiries and compactions already done stay done). */
    public void clear() {
        List<ActiveFault> removed = List.copyOf(rules);
        rules.removeAll(removed);
        removed.forEach(ActiveFault::remove);
    }

    /** The rules still active, in the order they are checked. */
    public List<ActiveFault> active() {
        return rules.stream().filter(ActiveFault::isActive).toList();
    }

    /**
     * The rule that fires on {@code request}, if any (counted as fired); rules spent or past their duration are
     * dropped on the way. For the server.
     */
    public Optional<FaultRule> fire(RequestAttributes request) {
        if (rules.isEmpty()) {
            return Optional.empty();
        }
        for (ActiveFault active : rules) {
            if (active.fires(request)) {
                return Optional.of(active.rule());
            }
            if (!active.isActive()) {
                rules.remove(active);
            }
        }
        return Optional.empty();
    }

    /**
     * Ends every open watch whose path (without query) {@code path} matches entirely, as the API server ends one at
     * its timeout (a clean end of the stream); the clients watch again from their last resourceVersion. Returns how
     * many watches it ended.
     */
    public int expireWatches(Pattern path) {
        return watches.expire(p -> path.matcher(p).matches());
    }

    /** Ends every open watch, as {@link #expireWatches(Pattern)}. */
    public int expireWatches() {
        return watches.expire(p -> true);
    }

    /**
     * Compacts the history at the newest change, as etcd compacts: a watch resuming from any older resourceVersion
     * gets {@code 410 Expired} ({@code too old resource version: X (Y)}), and its client lists again. A client that
     * has seen the newest change resumes without one. Returns the compaction point.
     */
    public long compact() {
        return watches.compactBefore(watches.newestResourceVersion());
    }

    /**
     * Compacts the history at {@code resourceVersion}: a watch resuming from an older one gets {@code 410 Expired}.
     * Returns the compaction point (never lower than before).
     *
     * @throws IllegalArgumentException if {@code resourceVersion} is newer than the newest change
     */
    public long compactBefore(long resourceVersion) {
        return watches.compactBefore(resourceVersion);
    }
}
