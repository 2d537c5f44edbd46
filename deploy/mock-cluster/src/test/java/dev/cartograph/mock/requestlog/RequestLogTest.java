package dev.cartograph.mock.requestlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestLogTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00.123Z");

    @Test
    void memoryKeepsTheNewestAndCountsEveryOne() {
        RequestLog log = RequestLog.inMemory(2);
        log.append(request("/a", 200));
        log.append(request("/b", 200));
        log.append(request("/c", 429));

        assertThat(log.entries()).extracting(LoggedRequest::uri).containsExactly("/b", "/c");
        assertThat(log.total()).isEqualTo(3);
    }

    @Test
    void aFileGetsOneJsonObjectPerLineWithEmptyFieldsLeftOut(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("logs/member.requests.jsonl");
        try (RequestLog log = RequestLog.toFile(0, file)) {
            log.append(new LoggedRequest(
                    T,
                    Optional.of("system:serviceaccount:cartograph-system:cartograph-agent"),
                    "update",
                    "/apis/coordination.k8s.io/v1/namespaces/cartograph-system/leases/agent",
                    429,
                    Optional.of("throttle"),
                    Optional.of("lease-renewals"),
                    Duration.ofNanos(180_900)));
            log.append(request("/api", 200));
            assertThat(log.entries()).isEmpty();
        }

        assertThat(Files.readAllLines(file))
                .containsExactly(
                        "{\"time\":\"2026-01-01T00:00:00.123Z\","
                                + "\"user\":\"system:serviceaccount:cartograph-system:cartograph-agent\","
                                + "\"verb\":\"update\","
                                + "\"uri\":\"/apis/coordination.k8s.io/v1/namespaces/cartograph-system/leases/agent\","
                                + "\"code\":429,\"fault\":\"throttle\",\"rule\":\"lease-renewals\",\"latencyMicros\":180}",
                        "{\"time\":\"2026-01-01T00:00:00.123Z\",\"verb\":\"get\",\"uri\":\"/api\",\"code\":200,"
                                + "\"latencyMicros\":1}");
    }

    private static LoggedRequest request(String uri, int code) {
        return new LoggedRequest(
                T, Optional.empty(), "get", uri, code, Optional.empty(), Optional.empty(), Duration.ofNanos(1_500));
    }
}
