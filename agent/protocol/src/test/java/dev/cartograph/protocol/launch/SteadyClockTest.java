package dev.cartograph.protocol.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SteadyClockTest {
    private static final Instant T0 = Instant.parse("2026-12-08T01:00:00Z");

    @Test
    void itStartsAtTheWallClocksTimeAndMovesOnlyWithTheMonotonicClock() {
        AtomicLong nanos = new AtomicLong(42_000_000_000L);
        // the wall clock is read once, at start: whatever NTP does to it afterwards is never seen
        SteadyClock steady = SteadyClock.from(Clock.fixed(T0, ZoneOffset.UTC), nanos::get);
        assertThat(steady.instant()).isEqualTo(T0);
        nanos.addAndGet(1_500_000_000L);
        assertThat(steady.instant()).isEqualTo(T0.plusMillis(1_500));
        nanos.addAndGet(500_000_000L);
        assertThat(steady.instant()).isEqualTo(T0.plusSeconds(2));
        assertThat(steady.millis()).isEqualTo(T0.plusSeconds(2).toEpochMilli());
        assertThat(steady.withZone(ZoneOffset.UTC)).isSameAs(steady);
    }
}
