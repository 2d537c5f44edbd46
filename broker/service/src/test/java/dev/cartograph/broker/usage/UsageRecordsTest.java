package dev.cartograph.broker.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.usage.UsageKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The {@code P.usage} record format (docs/protocol.md). */
@Timeout(10)
class UsageRecordsTest {
    static final Instant HOUR = Instant.parse("2026-12-06T10:00:00Z");
    static final UsageKey ML = new UsageKey("team-a", "ml", "NVIDIA-H100-80GB-HBM3");

    @Test
    void writesAnHoursTotalsInGpuSecondsAndReadsThemBack() {
        byte[] value = UsageRecords.encode(HOUR, Map.of(ML, 9_600_000L, new UsageKey("default", "cv", ""), 1_500L));

        assertThat(new String(value, StandardCharsets.UTF_8))
                .isEqualTo("{\"schema\":1,\"type\":\"usage\",\"hour\":\"2026-12-06T10:00:00Z\",\"gpuSeconds\":["
                        + "{\"queue\":\"default\",\"namespace\":\"cv\",\"gpuModel\":\"\",\"gpuSeconds\":1.5},"
                        + "{\"queue\":\"team-a\",\"namespace\":\"ml\",\"gpuModel\":\"NVIDIA-H100-80GB-HBM3\","
                        + "\"gpuSeconds\":9600.0}]}");
        assertThat(UsageRecords.decode(UsageRecords.key(HOUR), value))
                .isEqualTo(
                        new UsageRecords.Hour(HOUR, Map.of(ML, 9_600_000L, new UsageKey("default", "cv", ""), 1_500L)));
        assertThat(UsageRecords.key(HOUR)).isEqualTo("2026-12-06T10:00:00Z");
    }

    @Test
    void aTombstoneRemovesTheHourAndBadRecordsSayWhy() {
        assertThat(UsageRecords.decode("2026-12-06T10:00:00Z", null)).isEqualTo(new UsageRecords.Gone(HOUR));
        assertThat(UsageRecords.decode("yesterday", new byte[0]))
                .isEqualTo(new UsageRecords.Failed("key 'yesterday' is not an ISO instant"));
        assertThat(UsageRecords.decode("2026-12-06T10:30:00Z", null))
                .isEqualTo(new UsageRecords.Failed("key 2026-12-06T10:30:00Z does not start a UTC hour"));
        assertThat(UsageRecords.decode("2026-12-06T10:00:00Z", "{\"schema\":2,\"type\":\"usage\"}".getBytes()))
                .isInstanceOf(UsageRecords.Failed.class);
        assertThat(UsageRecords.decode(
                        "2026-12-06T10:00:00Z",
                        "{\"schema\":1,\"type\":\"usage\",\"gpuSeconds\":[{\"gpuSeconds\":-1}]}".getBytes()))
                .isEqualTo(
                        new UsageRecords.Failed("2026-12-06T10:00:00Z: gpuSeconds[0].gpuSeconds is not a number >= 0"));
        assertThat(UsageRecords.decode("2026-12-06T10:00:00Z", "{".getBytes())).isInstanceOf(UsageRecords.Failed.class);
    }
}
