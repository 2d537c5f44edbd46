package dev.cartograph.protocol.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SteadyClockTest {
    private static final Instant T0 = Instant.parse("2026-12-08T01:00:00Z");

    /** A wall clock a test steps. */
    private static final class Stepped extends Clock {
        Instant now = T0;

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    @Test
    void itStartsAtTheWallClocksTimeAndMovesOnlyWithTheMonotonicClock() {
        Stepped wall = new Stepped();
        AtomicLong nanos = new AtomicLong(42_000_000_000L);
        SteadyClock steady = SteadyClock.from(wall, nanos::get);
        assertThat(steady.instant()).isEqualTo(T0);
        nanos.addAndGet(1_500_000_000L);
        wall.now = T0.plusSeconds(300); // NTP steps the machine's clock five minutes ahead
        assertThat(steady.instant()).isEqualTo(T0.plusMillis(1_500));
        wall.now = T0.minusSeconds(300);
        nanos.addAndGet(500_000_000L);
        assertThat(steady.instant()).isEqualTo(T0.plusSeconds(2));
        assertThat(steady.millis()).isEqualTo(T0.plusSeconds(2).toEpochMilli());
    }
}
