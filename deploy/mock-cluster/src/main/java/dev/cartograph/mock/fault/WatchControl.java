package dev.cartograph.mock.fault;

import java.util.function.Predicate;

/**
 * What {@link Faults} asks of a server's watches and change history; implemented by the server. Implementations are
 * thread-safe.
 */
public interface WatchControl {
    /**
     * Ends the open watches whose path (without query) {@code path} accepts, as the server ends a watch at its
     * timeout: a clean end of the stream (HTTP: the last chunk; WebSocket: close 1000). Returns how many it ended.
     */
    int expire(Predicate<String> path);

    /**
     * Forgets the changes up to {@code resourceVersion}: a watch (or a stale list) asking to start from an older one
     * gets {@code 410 Expired}. Returns the compaction point, never lower than before.
     *
     * @throws IllegalArgumentException if {@code resourceVersion} is newer than the newest change
     */
    long compactBefore(long resourceVersion);

    /** The resourceVersion of the newest change, 0 before the first. */
    long newestResourceVersion();
}
