package dev.cartograph.protocol.launch;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * A clock that never steps: the wall clock's time when it was made, moved on by the monotonic clock since. The
 * services time their timeouts with it — heartbeat, failover, self-fence, start and answer timeouts — so that an NTP
 * step of the machine's clock (or a VM restored from a snapshot) does not make every cluster look silent for five
 * minutes in one tick, nor a live one look fresh (issue 34). What it shows may drift from the wall clock by the steps
 * made since the process started; what people read with a wall clock in mind (Events on the hub) keeps the wall clock.
 * Thread-safe: immutable.
 */
public final class SteadyClock extends UtcClock {
    private final Instant anchor;
    private final long anchorNanos;
    private final LongSupplier nanos;

    private SteadyClock(Instant anchor, long anchorNanos, LongSupplier nanos) {
        this.anchor = anchor;
        this.anchorNanos = anchorNanos;
        this.nanos = nanos;
    }

    /** Starts at {@code wall}'s time now and moves with {@link System#nanoTime()}. */
    public static SteadyClock from(Clock wall) {
        return from(wall, System::nanoTime);
    }

    static SteadyClock from(Clock wall, LongSupplier nanos) {
        return new SteadyClock(wall.instant(), nanos.getAsLong(), nanos);
    }

    @Override
    public Instant instant() {
        return anchor.plusNanos(nanos.getAsLong() - anchorNanos);
    }
}
