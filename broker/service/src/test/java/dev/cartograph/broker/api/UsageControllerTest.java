package dev.cartograph.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.access.Authentication;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Question;
import dev.cartograph.broker.access.Unavailable;
import dev.cartograph.broker.access.Verdict;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.usage.Accrual;
import dev.cartograph.usage.Ledger;
import dev.cartograph.usage.UsageKey;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code GET /api/v1/usage} on a hand-made ledger, now 12:30 UTC: team-a/ml 8 H100 10:40–12:10 (43,200 GPU-s = 12 h:
 * 10:00 9,600, 11:00 28,800, 12:00 4,800); team-a/ml-dev 2 H100 11:00–12:00 (7,200 = 2 h); team-b/cv 4 A100
 * 11:00–11:30 (7,200 = 2 h). The caller, alice, may get Jobs in ml only.
 */
@Timeout(30)
class UsageControllerTest {
    static final Instant NOW = Instant.parse("2026-12-06T12:30:00Z");
    static final Caller ALICE = new Caller("alice", "", List.of(), Map.of());
    static final Definitions CATALOG = Catalog.load().definitions();

    Ledger ledger = ledger();
    Exception usageDown;
    Predicate<String> allowedIn = "ml"::equals;
    boolean hubDown;

    static Ledger ledger() {
        Ledger l = Ledger.empty();
        l = add(l, new UsageKey("team-a", "ml", "H100"), 8, "10:40", "12:10");
        l = add(l, new UsageKey("team-a", "ml-dev", "H100"), 2, "11:00", "12:00");
        return add(l, new UsageKey("team-b", "cv", "A100"), 4, "11:00", "11:30");
    }

    static Ledger add(Ledger l, UsageKey key, long gpus, String from, String to) {
        return ((Accrual.Added) l.held(
                        Map.of(key, gpus),
                        Instant.parse("2026-12-06T" + from + ":00Z"),
                        Instant.parse("2026-12-06T" + to + ":00Z")))
                .ledger();
    }

    final BrokerState state = new BrokerState() {
        @Override
        public BrokerView view() {
            return BrokerView.EMPTY;
        }

        @Override
        public Definitions definitions() {
            return CATALOG;
        }

        @Override
        public Clock clock() {
            return Clock.fixed(NOW, ZoneOffset.UTC);
        }

        @Override
        public BrokerSettings settings() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<ApiResource> resource(String apiVersion, String kind) {
            return apiVersion.equals("batch/v1") && kind.equals("Job")
                    ? Optional.of(new ApiResource("batch", "jobs"))
                    : Optional.empty();
        }

        @Override
        public Ledger usage() throws Exception {
            if (usageDown != null) {
                throw usageDown;
            }
            return ledger;
        }
    };

    final UsageController controller = new UsageController(
            state,
            new AccessControl(
                    token -> new Authentication.Authenticated(ALICE),
                    this::authorize,
                    "test",
                    Clock.fixed(NOW, ZoneOffset.UTC),
                    Duration.ZERO,
                    10));

    Verdict authorize(Caller caller, Question q) {
        if (hubDown) {
            return new Unavailable("the hub does not answer");
        }
        return q.resource().equals("jobs") && allowedIn.test(q.namespace())
                ? Verdict.ALLOWED
                : new Verdict.Denied(q, "RBAC");
    }

    HttpResponse<String> get(String since, String by) {
        MutableHttpRequest<Object> request = HttpRequest.GET("/api/v1/usage");
        request.setAttribute("cartograph.caller", ALICE);
        return controller.usage(request, since, by);
    }

    static JsonNode body(HttpResponse<String> r) throws Exception {
        return Documents.json().readTree(r.body());
    }

    @Test
    void sumsEveryQueuesGpuTimePerModelForAnyCaller() throws Exception {
        HttpResponse<String> r = get("24h", "queue");

        assertThat(r.code()).isEqualTo(200);
        // team-a H100: 43,200 + 7,200 = 50,400 GPU-s = 14 h; team-b A100 7,200 = 2 h
        assertThat(body(r).toString())
                .isEqualTo("{\"since\":\"2026-12-05T12:00:00Z\",\"by\":\"queue\",\"rows\":["
                        + "{\"queue\":\"team-a\",\"gpuModel\":\"H100\",\"gpuSeconds\":50400.0,\"gpuHours\":14.0},"
                        + "{\"queue\":\"team-b\",\"gpuModel\":\"A100\",\"gpuSeconds\":7200.0,\"gpuHours\":2.0}]}");
    }

    @Test
    void showsOnlyTheNamespacesTheCallerMayReadWorkloadsIn() throws Exception {
        JsonNode rows = body(get("2026-12-06T00:00:00Z", "namespace")).path("rows");
        assertThat(rows.toString())
                .isEqualTo("[{\"namespace\":\"ml\",\"gpuModel\":\"H100\",\"gpuSeconds\":43200.0,\"gpuHours\":12.0}]");

        allowedIn = ns -> true;
        assertThat(body(get("7d", "namespace")).path("rows"))
                .extracting(row -> row.path("namespace").asText())
                .containsExactly("cv", "ml", "ml-dev");
        allowedIn = ns -> false;
        assertThat(body(get("7d", "namespace")).path("rows")).isEmpty();
    }

    @Test
    void countsFromTheStartOfTheHourSinceFallsIn() throws Exception {
        // since 1h = 11:30, so from 11:00: ml 28,800 + 4,800 = 33,600 GPU-s = 9.333 h
        JsonNode body = body(get("1h", "namespace"));
        assertThat(body.path("since").asText()).isEqualTo("2026-12-06T11:00:00Z");
        assertThat(body.path("rows").get(0).path("gpuSeconds").asDouble()).isEqualTo(33_600.0);
        assertThat(body.path("rows").get(0).path("gpuHours").asDouble()).isEqualTo(9.333);
        assertThat(body(get("PT30M", null)).path("rows")).hasSize(1); // queue by default; 12:00 on: team-a 4,800
    }

    @Test
    void refusesParametersItCannotReadSayingWhy() throws Exception {
        assertThat(get(null, null).code()).isEqualTo(400);
        assertThat(body(get(null, null)).path("error").path("message").asText()).startsWith("since is required");
        assertThat(body(get("yesterday", "queue")).path("error").path("message").asText())
                .isEqualTo("since 'yesterday' is neither an ISO instant (2026-12-01T00:00:00Z) nor a duration (7d,"
                        + " 24h, 90m, P7D)");
        assertThat(body(get("7d", "cluster")).path("error").path("message").asText())
                .isEqualTo("by must be queue or namespace, not 'cluster'");
        assertThat(body(get("2026-12-07T00:00:00Z", "queue"))
                        .path("error")
                        .path("message")
                        .asText())
                .isEqualTo("since 2026-12-07T00:00:00Z is in the future (now 2026-12-06T12:30:00Z)");
        assertThat(get("7d", "cluster").code()).isEqualTo(400);
    }

    @Test
    void answers503WhenUsageOrPermissionsCannotBeKnownNow() throws Exception {
        hubDown = true;
        assertThat(get("7d", "namespace").code()).isEqualTo(503);
        assertThat(get("7d", "queue").code()).isEqualTo(200); // queue totals ask no permission

        usageDown = new java.io.IOException("P.usage unreachable");
        HttpResponse<String> r = get("7d", "queue");
        assertThat(r.code()).isEqualTo(503);
        assertThat(body(r).path("error").path("message").asText())
                .isEqualTo("usage cannot be read now: P.usage unreachable");
    }
}
