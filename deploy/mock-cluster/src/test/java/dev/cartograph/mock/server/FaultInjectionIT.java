package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.fault.ActiveFault;
import dev.cartograph.mock.fault.Fault;
import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.fault.RequestMatch;
import dev.cartograph.mock.rbac.Rbac;
import dev.cartograph.mock.rbac.RbacPolicy;
import dev.cartograph.mock.requestlog.LoggedRequest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each fault as a client meets it: on the wire (the JDK's HTTP client, which retries nothing), and through the
 * fabric8 client, which retries a 429, a 5xx and a dropped connection by itself ({@code requestRetryBackoffLimit},
 * default 10 retries, after an exponential backoff from {@code requestRetryBackoffInterval}, default 100 ms, doubling up
 * to 3.2 s) unless told not to (limit 0, as the broker's client and the server's own). Expected answers are written out from kube-apiserver's sources (see {@code Fault}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultInjectionIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String LEASE = "/apis/coordination.k8s.io/v1/namespaces/cartograph-system/leases/agent";
    private static final String CONFIGMAPS = "/api/v1/namespaces/ml/configmaps";

    private MockApiServer server;

    @BeforeEach
    void start() {
        server = MockApiServer.start();
        server.client()
                .leases()
                .inNamespace("cartograph-system")
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("agent")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("agent-1")
                        .endSpec()
                        .build())
                .create();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aThrottledLeaseRenewalGets429WithRetryAfterAsPriorityAndFairnessSendsIt() throws Exception {
        ActiveFault throttle = server.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("update").resource("coordination.k8s.io", "leases"),
                                Fault.throttle(2))
                        .named("lease-renewals")
                        .forNext(1));
        String lease = send("GET", LEASE, null).body();

        HttpResponse<String> read = send("GET", LEASE, null);
        HttpResponse<String> throttled = send("PUT", LEASE, lease);
        HttpResponse<String> renewed = send("PUT", LEASE, lease);

        assertThat(read.statusCode()).as("a read is not an update").isEqualTo(200);
        assertThat(throttled.statusCode()).isEqualTo(429);
        assertThat(throttled.headers().firstValue("Retry-After")).contains("2");
        assertThat(throttled.headers().firstValue("Content-Type")).contains("text/plain; charset=utf-8");
        assertThat(throttled.body()).isEqualTo("Too many requests, please try again later.\n");
        assertThat(renewed.statusCode())
                .as("the rule was for the next update only")
                .isEqualTo(200);
        assertThat(throttle.fired()).isEqualTo(1);
        assertThat(server.faults().active()).isEmpty();
        LoggedRequest logged = server.requestLog().entries().stream()
                .filter(r -> r.code() == 429)
                .findFirst()
                .orElseThrow();
        assertThat(logged.verb()).isEqualTo("update");
        assertThat(logged.uri()).isEqualTo(LEASE);
        assertThat(logged.fault()).contains("throttle");
        assertThat(logged.rule()).contains("lease-renewals");
    }

    /**
     * fabric8 7.5.2 retries a 429 after its own backoff (100 ms, 200 ms, ...), not after {@code Retry-After}:
     * {@code AsyncUtils.retryWithExponentialBackoff} schedules the retry after the backoff interval and drops the value
     * {@code StandardHttpClient.shouldRetry} computed from the header (fabric8io/kubernetes-client#6366 meant to wire it
     * in; the scheduling still uses the backoff). A real API server's {@code Retry-After} is ignored the same way.
     */
    @Test
    void theFabric8ClientRetriesAThrottleOnItsOwnBackoffUnlessItsRetriesAreOff() throws Exception {
        ActiveFault throttle = server.faults()
                .add(FaultRule.on(RequestMatch.verbs("create").resource("", "configmaps"), Fault.throttle(5))
                        .forNext(2));
        try (KubernetesClient retrying = client(10)) {
            long started = System.nanoTime();
            retrying.configMaps()
                    .inNamespace("ml")
                    .resource(configMap("patient"))
                    .create();
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // two 429s asking for 5 s each; retried after 100 ms and 200 ms of backoff instead
            assertThat(throttle.fired()).isEqualTo(2);
            assertThat(took).isLessThan(Duration.ofSeconds(5));
            assertThat(server.client()
                            .configMaps()
                            .inNamespace("ml")
                            .withName("patient")
                            .get())
                    .isNotNull();
        }

        server.faults()
                .add(FaultRule.on(RequestMatch.verbs("create").resource("", "configmaps"), Fault.throttle(1))
                        .forNext(1));
        assertThatThrownBy(() -> server.client()
                        .configMaps()
                        .inNamespace("ml")
                        .resource(configMap("impatient"))
                        .create())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(429));
    }

    @Test
    void aThrottleFromStorageIsAStatusTheClientReads() {
        server.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("list").resource("", "configmaps"),
                                Fault.throttleWithStatus(1, "storage is (re)initializing"))
                        .forNext(1));

        assertThatThrownBy(() -> server.client().configMaps().inNamespace("ml").list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(429);
                    assertThat(e.getStatus().getReason()).isEqualTo("TooManyRequests");
                    assertThat(e.getStatus().getMessage()).isEqualTo("storage is (re)initializing");
                    assertThat(e.getStatus().getDetails().getRetryAfterSeconds())
                            .isEqualTo(1);
                });
    }

    @Test
    void serverErrorsAreStatusesOnTheWireAndExceptionsWithTheirReasonInTheClient() throws Exception {
        server.faults()
                .add(FaultRule.on(RequestMatch.discovery(), Fault.serviceUnavailable("etcdserver: leader changed"))
                        .forNext(1));
        server.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("get").resource("coordination.k8s.io", "leases"),
                                Fault.timeout(
                                        "request did not complete within requested timeout - context deadline exceeded",
                                        1))
                        .forNext(1));
        server.faults()
                .add(FaultRule.on(RequestMatch.verbs("patch"), Fault.internalError("etcd cluster is unavailable"))
                        .forNext(1));

        HttpResponse<String> discovery = send("GET", "/apis", null);
        assertThat(discovery.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(discovery.body()).path("reason").asText()).isEqualTo("ServiceUnavailable");
        assertThat(send("GET", "/apis", null).statusCode()).isEqualTo(200);

        HttpResponse<String> timeout = send("GET", LEASE, null);
        assertThat(timeout.statusCode()).isEqualTo(504);
        assertThat(timeout.headers().firstValue("Retry-After")).contains("1");
        JsonNode status = JSON.readTree(timeout.body());
        assertThat(status.path("reason").asText()).isEqualTo("Timeout");
        assertThat(status.path("details").path("retryAfterSeconds").asInt()).isEqualTo(1);

        assertThatThrownBy(() -> server.client()
                        .leases()
                        .inNamespace("cartograph-system")
                        .withName("agent")
                        .edit(l -> {
                            l.getSpec().setHolderIdentity("agent-2");
                            return l;
                        }))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(500);
                    assertThat(e.getStatus().getReason()).isEqualTo("InternalError");
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("Internal error occurred: etcd cluster is unavailable");
                });
        Lease unchanged = server.client()
                .leases()
                .inNamespace("cartograph-system")
                .withName("agent")
                .get();
        assertThat(unchanged.getSpec().getHolderIdentity()).isEqualTo("agent-1");
    }

    @Test
    void aDelayHoldsOneRequestWhileOthersAreServedAndStoresItsBodyAfterwards() throws Exception {
        server.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("create").resource("", "configmaps"),
                                Fault.delay(Duration.ofMillis(1500)))
                        .forNext(1));

        long started = System.nanoTime();
        CompletableFuture<HttpResponse<String>> slow = HTTP.sendAsync(
                HttpRequest.newBuilder(URI.create(server.url() + CONFIGMAPS))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"slow\"},"
                                        + "\"data\":{\"mode\":\"late\"}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Thread.sleep(200);
        HttpResponse<String> meanwhile = send("GET", LEASE, null);
        Duration meanwhileAt = Duration.ofNanos(System.nanoTime() - started);
        HttpResponse<String> created = slow.get(10, TimeUnit.SECONDS);
        Duration createdAt = Duration.ofNanos(System.nanoTime() - started);

        // the server's one event loop answered the read while the create was held
        assertThat(meanwhile.statusCode()).isEqualTo(200);
        assertThat(meanwhileAt).isLessThan(Duration.ofMillis(1500));
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(createdAt).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(server.client()
                        .configMaps()
                        .inNamespace("ml")
                        .withName("slow")
                        .get()
                        .getData())
                .isEqualTo(Map.of("mode", "late"));
    }

    @Test
    void aDelayedWebSocketWatchOpensLateAndThenStreams() throws Exception {
        server.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("watch").resource("", "configmaps"),
                                Fault.delay(Duration.ofMillis(800)))
                        .forNext(1));
        java.util.concurrent.BlockingQueue<String> seen = new java.util.concurrent.LinkedBlockingQueue<>();

        long started = System.nanoTime();
        try (io.fabric8.kubernetes.client.Watch ignored = server.client()
                .configMaps()
                .inNamespace("ml")
                .watch(new io.fabric8.kubernetes.client.Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {
                        seen.add(action + " " + resource.getMetadata().getName());
                    }

                    @Override
                    public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {}
                })) {
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("watch() returns once the WebSocket is open")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(800));
            server.client()
                    .configMaps()
                    .inNamespace("ml")
                    .resource(configMap("seen"))
                    .create();
            assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("ADDED seen");
        }
        assertThat(server.requestLog().entries())
                .filteredOn(r -> "watch".equals(r.verb()))
                .extracting(LoggedRequest::code, r -> r.fault().orElse(""))
                .containsExactly(org.assertj.core.groups.Tuple.tuple(101, "delay"));
    }

    @Test
    void aResetLeavesTheRequestWithoutAnAnswerAndTheFabric8ClientTriesAgain() throws Exception {
        server.faults()
                .add(FaultRule.on(RequestMatch.verbs("get").resource("coordination.k8s.io", "leases"), Fault.reset())
                        .forNext(2));

        assertThatThrownBy(() -> send("GET", LEASE, null)).isInstanceOf(IOException.class);
        try (KubernetesClient retrying = client(10)) {
            Lease lease = retrying.leases()
                    .inNamespace("cartograph-system")
                    .withName("agent")
                    .get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("agent-1");
        }
        assertThat(server.requestLog().entries())
                .filteredOn(r -> r.fault().isPresent())
                .extracting(LoggedRequest::code, r -> r.fault().orElseThrow())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(LoggedRequest.NO_ANSWER, "reset"),
                        org.assertj.core.groups.Tuple.tuple(LoggedRequest.NO_ANSWER, "reset"));
    }

    @Test
    void faultsComeBeforeRbacAndTheLogNamesTheUserOfAKnownToken() throws Exception {
        String none = """
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: nothing}
                rules: []
                """;
        try (MockApiServer guarded = MockApiServer.start(MockApiServer.Options.defaults()
                .withRbac(Rbac.enforcing(RbacPolicy.fromYaml(java.util.List.of(none)), Map.of("t0ken", "alice"))))) {
            guarded.faults()
                    .add(FaultRule.on(RequestMatch.verbs("list"), Fault.throttle(1))
                            .forNext(1));
            HttpRequest asAlice = HttpRequest.newBuilder(URI.create(guarded.url() + CONFIGMAPS))
                    .header("Authorization", "Bearer t0ken")
                    .GET()
                    .build();

            assertThat(HTTP.send(asAlice, HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(429);
            assertThat(HTTP.send(asAlice, HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(403);
            assertThat(guarded.requestLog().entries())
                    .extracting(LoggedRequest::user, LoggedRequest::code)
                    .endsWith(
                            org.assertj.core.groups.Tuple.tuple(java.util.Optional.of("alice"), 429),
                            org.assertj.core.groups.Tuple.tuple(java.util.Optional.of("alice"), 403));
        }
    }

    private KubernetesClient client(int retries) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url())
                .withHttp2Disable(true)
                .withRequestRetryBackoffLimit(retries)
                .withRequestRetryBackoffInterval(100)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private HttpResponse<String> send(String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path));
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("mode", "fast")
                .build();
    }
}
