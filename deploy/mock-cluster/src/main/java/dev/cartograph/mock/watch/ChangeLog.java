package dev.cartograph.mock.watch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last {@code capacity} changes of one store, in the order they were made, and the listeners
 * that get every new one: what HTTP watches are served from. A watch that starts at a
 * resourceVersion first gets the retained changes after it, then every new one; one that starts
 * further back than the log retains is {@link Expired} (a real server answers 410 Gone, and clients
 * list again).
 *
 * <p>Thread-safe: one lock. {@link #append} is called by the store's single writer (under the CRUD
 * dispatcher's write lock), and listeners run under this lock in append order, so a listener must
 * only hand the change on (to an event loop, a queue), never block and never call back into the
 * store. A listener that throws is dropped, and the others still get the change.
 */
public final class ChangeLog {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeLog.class);

    private final int capacity;
    private final Object lock = new Object();
    private final ArrayDeque<Change> retained = new ArrayDeque<>();
    private final List<Consumer<Change>> listeners = new ArrayList<>();
    private long evictedUpTo;

    /** @param capacity how many changes to retain for watches that start at an older resourceVersion (at least 1) */
    public ChangeLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** The outcome of {@link #subscribe(long, Consumer)}. */
    public sealed interface Subscribed permits Subscription, Expired {}

    /** Listening; {@link #close()} stops it (idempotent). */
    public final class Subscription implements Subscribed, AutoCloseable {
        private final Consumer<Change> listener;

        private Subscription(Consumer<Change> listener) {
            this.listener = listener;
        }

        @Override
        public void close() {
            synchronized (lock) {
                listeners.remove(listener);
            }
        }
    }

    /**
     * Changes after {@code requested} are no longer retained.
     *
     * @param oldest the oldest resourceVersion a watch can still start at
     */
    public record Expired(long requested, long oldest) implements Subscribed {}

    /** Records {@code change} and hands it to every listener. */
    public void append(Change change) {
        synchronized (lock) {
            retained.addLast(change);
            if (retained.size() > capacity) {
                evictedUpTo = Math.max(evictedUpTo, retained.removeFirst().resourceVersion());
            }
            for (Consumer<Change> listener : List.copyOf(listeners)) {
                deliver(listener, change);
            }
        }
    }

    /** Listens to every change appended from now on. */
    public Subscription subscribe(Consumer<Change> listener) {
        synchronized (lock) {
            listeners.add(listener);
            return new Subscription(listener);
        }
    }

    /**
     * Hands {@code listener} the retained changes with a resourceVersion above {@code after}, in order,
     * then every change appended from now on; {@link Expired} (and no listening) when changes after
     * {@code after} are no longer retained.
     */
    public Subscribed subscribe(long after, Consumer<Change> listener) {
        synchronized (lock) {
            if (after < evictedUpTo) {
                return new Expired(after, evictedUpTo);
            }
            listeners.add(listener);
            for (Change change : retained) {
                if (change.resourceVersion() > after) {
                    deliver(listener, change);
                }
            }
            return new Subscription(listener);
        }
    }

    /**
     * Forgets the changes up to {@code resourceVersion}, as etcd compacts its history: from now on a watch starting
     * below it is {@link Expired}. Returns the compaction point (the oldest resourceVersion a watch can start at),
     * never lower than before.
     *
     * @throws IllegalArgumentException if {@code resourceVersion} is newer than the newest change
     */
    public long compactBefore(long resourceVersion) {
        synchronized (lock) {
            if (resourceVersion > newest()) {
                throw new IllegalArgumentException("cannot compact at resourceVersion " + resourceVersion
                        + ": the newest change is " + newest() + " (etcd: required revision is a future revision)");
            }
            while (!retained.isEmpty() && retained.peekFirst().resourceVersion() <= resourceVersion) {
                retained.removeFirst();
            }
            evictedUpTo = Math.max(evictedUpTo, resourceVersion);
            return evictedUpTo;
        }
    }

    /** The resourceVersion of the newest change, 0 before the first. */
    public long newestResourceVersion() {
        synchronized (lock) {
            return newest();
        }
    }

    /**
     * The history as of {@code resourceVersion}: the retained changes up to it, oldest first, and the oldest
     * resourceVersion they reach back from (a state at any resourceVersion from there on can be rebuilt by undoing
     * the newer ones).
     */
    public History history(long resourceVersion) {
        synchronized (lock) {
            return new History(
                    evictedUpTo,
                    retained.stream()
                            .filter(c -> c.resourceVersion() <= resourceVersion)
                            .toList());
        }
    }

    /**
     * Changes retained, oldest first, and the resourceVersion they start after.
     *
     * @param startsAfter every change after it is in {@code changes}
     */
    public record History(long startsAfter, List<Change> changes) {
        public History {
            changes = List.copyOf(changes);
        }
    }

    /** How many listeners there are now (for tests and diagnostics). */
    public int listenerCount() {
        synchronized (lock) {
            return listeners.size();
        }
    }

    private long newest() {
        return retained.isEmpty()
                ? evictedUpTo
                : Math.max(evictedUpTo, retained.peekLast().resourceVersion());
    }

    private void deliver(Consumer<Change> listener, Change change) {
        try {
            listener.accept(change);
        } catch (RuntimeException e) {
            listeners.remove(listener);
            LOG.warn(
                    "dropped a watch listener that failed on resourceVersion {}: {}",
                    change.resourceVersion(),
                    e.toString());
        }
    }
}
