package dev.cartograph.protocol.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall clock a service (the broker, the agent) reads: the system's, or — for fault tests only — the system's plus
 * an offset read from a file, so that one process's clock can be skewed, and stepped while it runs, as a machine's
 * clock is when NTP steps it (issue 33). Set {@code -Dcartograph.clock.offset-file=PATH}; the file holds the offset in
 * milliseconds (say {@code 300000} or {@code -13000}), is read again at most every 100 ms, and a missing or unreadable
 * file counts as the last offset read (zero at first). Only the wall clock moves: timers and timeouts run on the
 * monotonic clock, as on a machine. Not a setting: nothing but a fault test has a reason to set it. Thread-safe.
 */
public final class ProcessClock extends UtcClock {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessClock.class);
    /** The system property naming the offset file. */
    public static final String OFFSET_FILE = "cartograph.clock.offset-file";

    private static final long REREAD_NANOS = Duration.ofMillis(100).toNanos();

    private final Path file;
    private final LongSupplier nanos;
    private volatile long offsetMillis;
    private volatile long readAt;

    private ProcessClock(Path file, LongSupplier nanos) {
        this.file = file;
        this.nanos = nanos;
        this.readAt = nanos.getAsLong() - REREAD_NANOS;
    }

    /** The system's UTC clock, or one skewed by the file {@link #OFFSET_FILE} names when it is set. */
    public static Clock fromSystemProperties() {
        return of(Optional.ofNullable(System.getProperty(OFFSET_FILE))
                .filter(p -> !p.isBlank())
                .map(Path::of));
    }

    static Clock of(Optional<Path> offsetFile) {
        if (offsetFile.isEmpty()) {
            return Clock.systemUTC();
        }
        LOG.warn("this process's wall clock is skewed by the offset in {} (a fault test)", offsetFile.get());
        return of(offsetFile.get(), System::nanoTime);
    }

    static ProcessClock of(Path offsetFile, LongSupplier nanos) {
        return new ProcessClock(offsetFile, nanos);
    }

    /** The offset now, read again from the file when the last read is older than 100 ms. */
    long offsetMillis() {
        long now = nanos.getAsLong();
        if (now - readAt >= REREAD_NANOS) {
            readAt = now;
            try {
                String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
                long read = text.isEmpty() ? 0 : Long.parseLong(text);
                if (read != offsetMillis) {
                    LOG.warn("wall clock offset now {} ms (was {} ms)", read, offsetMillis);
                    offsetMillis = read;
                }
            } catch (IOException | NumberFormatException e) {
                // kept: a file being written, or gone; the last offset stands
            }
        }
        return offsetMillis;
    }

    @Override
    public Instant instant() {
        return Instant.now().plusMillis(offsetMillis());
    }

    @Override
    public long millis() {
        return System.currentTimeMillis() + offsetMillis();
    }
}
