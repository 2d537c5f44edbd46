package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.cartograph.interpreter.Documents;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code carto usage} against a stand-in broker answering {@code GET /api/v1/usage} as the broker does (team-a 50,400
 * H100 GPU-seconds = 14 GPU-hours, team-b 7,200 A100 = 2; 16 in all), and refusing a {@code since} it cannot read.
 */
@Timeout(30)
class UsageCommandTest {
    HttpServer server;
    final AtomicReference<String> asked = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/usage", exchange -> {
            if (StandInBroker.refuses(exchange)) {
                return;
            }
            String query = exchange.getRequestURI().getRawQuery();
            asked.set(query);
            if (query.contains("since=yesterday")) {
                StandInBroker.answer(
                        exchange,
                        400,
                        "{\"error\":{\"code\":\"bad_request\",\"message\":\"since 'yesterday' is neither an ISO instant"
                                + " (2026-12-01T00:00:00Z) nor a duration (7d, 24h, 90m, P7D)\"}}");
                return;
            }
            String by = query.contains("by=namespace") ? "namespace" : "queue";
            String a = by.equals("queue") ? "team-a" : "ml";
            String b = by.equals("queue") ? "team-b" : "cv";
            StandInBroker.answer(exchange, 200, """
                    {"since":"2026-11-29T12:00:00Z","by":"%s","rows":[
                     {"%s":"%s","gpuModel":"NVIDIA-H100-80GB-HBM3","gpuSeconds":50400.0,"gpuHours":14.0},
                     {"%s":"%s","gpuModel":"NVIDIA-A100-SXM4-80GB","gpuSeconds":7200.0,"gpuHours":2.0}]}
                    """.formatted(by, by, a, by, b));
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void showsGpuHoursPerQueueAndModelSinceSevenDaysByDefault() {
        CartoTest.Run run = CartoTest.carto(StandInBroker.WITH_TOKEN, "usage", "--broker", url());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked.get()).isEqualTo("since=7d&by=queue");
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0).split("\\s{2,}")).containsExactly("QUEUE", "GPU MODEL", "GPU-HOURS");
        assertThat(lines.get(1).split("\\s+")).containsExactly("team-a", "NVIDIA-H100-80GB-HBM3", "14.00");
        assertThat(lines.get(2).split("\\s+")).containsExactly("team-b", "NVIDIA-A100-SXM4-80GB", "2.00");
        assertThat(run.out()).contains("since 2026-11-29T12:00:00Z: 16.00 GPU-hours in all");
    }

    @Test
    void byNamespaceSinceAnInstantAsJson() throws Exception {
        CartoTest.Run run = CartoTest.carto(
                StandInBroker.WITH_TOKEN,
                "usage",
                "--broker",
                url(),
                "--since",
                "2026-12-01T00:00:00Z",
                "--by",
                "namespace",
                "-o",
                "json");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked.get()).isEqualTo("since=2026-12-01T00%3A00%3A00Z&by=namespace");
        assertThat(Documents.json().readTree(run.out()).at("/rows/1/namespace").asText())
                .isEqualTo("cv");
        CartoTest.Run table =
                CartoTest.carto(StandInBroker.WITH_TOKEN, "usage", "--broker", url(), "--by", "namespace");
        assertThat(table.out().lines().findFirst().orElseThrow()).startsWith("NAMESPACE");
    }

    @Test
    void aSinceTheBrokerCannotReadOrAnUnknownGroupingIsAUsageError() {
        CartoTest.Run bad =
                CartoTest.carto(StandInBroker.WITH_TOKEN, "usage", "--broker", url(), "--since", "yesterday");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("the broker says: since 'yesterday' is neither an ISO instant");

        CartoTest.Run by = CartoTest.carto(StandInBroker.WITH_TOKEN, "usage", "--broker", url(), "--by", "cluster");
        assertThat(by.exit()).isEqualTo(2);
        assertThat(by.err()).contains("'cluster' is not one of queue, namespace");
    }

    @Test
    void withoutATokenItSaysSoAndExits6() {
        CartoTest.Run run = CartoTest.carto("usage", "--broker", url());
        assertThat(run.exit()).isEqualTo(6);
        assertThat(run.out()).isEmpty();
    }
}
