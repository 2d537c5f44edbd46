package dev.cartograph.broker.usage;

import dev.cartograph.usage.Ledger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Usage as the store has it, for an instance that does not account (a follower answering the REST API): read at most
 * every {@code every}, so at most that much plus the leader's last minute behind. Thread-safe.
 */
public final class StoredUsage {
    private final UsageStore store;
    private final Clock clock;
    private final Duration every;
    private Ledger last = Ledger.empty();
    private Instant readAt = Instant.MIN;

    public StoredUsage(UsageStore store, Clock clock, Duration every) {
        this.store = store;
        this.clock = clock;
        this.every = every;
    }

    /** The stored ledger, read again when the last read is {@code every} old; throws when it cannot be read. */
    public synchronized Ledger get() throws Exception {
        Instant now = clock.instant();
        if (now.isBefore(readAt.plus(every))) {
            return last;
        }
        last = store.load();
        readAt = now;
        return last;
    }
}
