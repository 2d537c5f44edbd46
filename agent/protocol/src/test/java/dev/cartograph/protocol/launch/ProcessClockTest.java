package dev.cartograph.protocol.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessClockTest {
    @TempDir
    Path dir;

    @Test
    void withoutAnOffsetFileItIsTheSystemsClock() {
        assertThat(ProcessClock.of(Optional.empty())).isEqualTo(Clock.systemUTC());
    }

    @Test
    void theOffsetInTheFileSkewsTheWallClockAndAStepIsSeenAtTheNextRead() throws Exception {
        Path file = Files.writeString(dir.resolve("offset"), "300000\n");
        AtomicLong nanos = new AtomicLong(0);
        ProcessClock clock = ProcessClock.of(file, nanos::get);
        assertThat(Duration.between(Instant.now(), clock.instant()))
                .isBetween(
                        Duration.ofMinutes(5).minusSeconds(1),
                        Duration.ofMinutes(5).plusSeconds(1));

        Files.writeString(file, "-13000");
        nanos.addAndGet(Duration.ofMillis(99).toNanos());
        assertThat(clock.offsetMillis()).as("not read again within 100 ms").isEqualTo(300_000);
        nanos.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(clock.offsetMillis()).isEqualTo(-13_000);
        assertThat(clock.millis() - System.currentTimeMillis()).isBetween(-14_000L, -12_000L);
    }

    @Test
    void aFileBeingWrittenOrGoneKeepsTheLastOffset() throws Exception {
        Path file = Files.writeString(dir.resolve("offset"), "5000");
        AtomicLong nanos = new AtomicLong(0);
        ProcessClock clock = ProcessClock.of(file, nanos::get);
        assertThat(clock.offsetMillis()).isEqualTo(5_000);
        Files.writeString(file, "50x");
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(clock.offsetMillis()).isEqualTo(5_000);
        Files.delete(file);
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(clock.offsetMillis()).isEqualTo(5_000);
    }
}
