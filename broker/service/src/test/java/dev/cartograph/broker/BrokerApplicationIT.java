package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.testing.TestKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The broker as the Micronaut service it ships as: REST API, plan without placing, OpenAPI, health. */
@Timeout(180)
class BrokerApplicationIT {
    static final String TOKEN = "token-admin";

    @TempDir
    Path dir;

    @Test
    void servesTheFleetPlansWithoutPlacingAndPublishesItsOpenApi() throws Exception {
        try (TestKafka kafka = TestKafka.start(dir.resolve("kafka"));
                Federation fed = new Federation(kafka::bootstrapServers)) {
            fed.member("west", "NVIDIA-H100-80GB-HBM3", 4, 5, 5, 5, 5).member("east", "NVIDIA-H100-80GB-HBM3", 2);
            Path kubeconfig = fed.writeHubKubeconfig(dir.resolve("hub.kubeconfig"));
            // the hub knows the test's token: an admin allowed to create PyTorchJobs anywhere
            fed.reviews.user(TOKEN, "admin").allow("admin", "create", "kubeflow.org", "pytorchjobs", "*");
            try (EmbeddedServer server = ApplicationContext.run(
                            EmbeddedServer.class,
                            Map.of(
                                    "micronaut.server.port", "-1",
                                    // a Kafka client setting under its own dotted name, as TLS and SASL ones are given
                                    "cartograph.broker.kafka.bootstrap.servers", kafka.bootstrapServers(),
                                    "cartograph.broker.topic-prefix", fed.prefix,
                                    "cartograph.broker.kubeconfig", kubeconfig.toString(),
                                    "cartograph.broker.heartbeat-timeout", "5s",
                                    "cartograph.broker.failover-timeout", "30s",
                                    "cartograph.broker.topic-replication-factor", "1",
                                    "cartograph.broker.topic-min-insync-replicas", "1",
                                    // the test's nodes carry no topology labels: each node its own domain
                                    "cartograph.broker.topology-levels", "kubernetes.io/hostname"));
                    HttpClient http = HttpClient.create(server.getURL())) {
                Eventually.asserted(Duration.ofSeconds(60), () -> {
                    JsonNode fleet = get(http, "/api/v1/fleet");
                    assertThat(fleet.path("clusters")).hasSize(2);
                });
                JsonNode fleet = get(http, "/api/v1/fleet");
                // hand counts: west 4 nodes x 8 GPUs, 5 used on each -> 32 total, 20 allocated, 12 free, largest block
                // 3
                JsonNode west = fleet.path("clusters").get(1);
                assertThat(west.path("name").asText()).isEqualTo("west");
                JsonNode row = west.path("gpuModels").get(0);
                assertThat(row.path("model").asText()).isEqualTo("NVIDIA-H100-80GB-HBM3");
                assertThat(row.path("total").asLong()).isEqualTo(32);
                assertThat(row.path("allocated").asLong()).isEqualTo(20);
                assertThat(row.path("free").asLong()).isEqualTo(12);
                assertThat(row.path("largestFreeBlock").asLong()).isEqualTo(3);
                assertThat(fleet.path("totals").path("total").asLong()).isEqualTo(48);
                assertThat(fleet.path("totals").path("free").asLong()).isEqualTo(28);
                assertThat(get(http, "/api/v1/clusters/east")
                                .path("gpuModels")
                                .get(0)
                                .path("free")
                                .asLong())
                        .isEqualTo(16);
                // per node: east-n0, east-n1 8 free of 8 (whole); west-n0..n3 3 free of 8 each
                JsonNode domains = get(http, "/api/v1/fleet/domains?level=kubernetes.io/hostname");
                assertThat(domains.path("levels").toString()).isEqualTo("[\"kubernetes.io/hostname\"]");
                assertThat(domains.path("domains")).hasSize(6);
                JsonNode east0 = domains.path("domains").get(0);
                assertThat(east0.path("domain").asText()).isEqualTo("east-n0");
                assertThat(east0.path("freeGpus").asLong()).isEqualTo(8);
                assertThat(east0.path("wholeFreeNodes").asLong()).isEqualTo(1);
                JsonNode west0 = domains.path("domains").get(2);
                assertThat(west0.path("domain").asText()).isEqualTo("west-n0");
                assertThat(west0.path("freeGpus").asLong()).isEqualTo(3);
                assertThat(west0.path("largestFreeBlock").asLong()).isEqualTo(3);
                assertThat(west0.path("wholeFreeNodes").asLong()).isZero();
                HttpClientResponseException notALevel = org.junit.jupiter.api.Assertions.assertThrows(
                        HttpClientResponseException.class,
                        () -> http.toBlocking()
                                .retrieve(HttpRequest.GET("/api/v1/fleet/domains?level=topology.kubernetes.io/zone")
                                        .bearerAuth(TOKEN)));
                assertThat(notALevel.getStatus().getCode()).isEqualTo(400);
                HttpClientResponseException missing = org.junit.jupiter.api.Assertions.assertThrows(
                        HttpClientResponseException.class,
                        () -> http.toBlocking()
                                .retrieve(HttpRequest.GET("/api/v1/clusters/nowhere")
                                        .bearerAuth(TOKEN)));
                assertThat(missing.getStatus().getCode()).isEqualTo(404);

                String job = """
                        apiVersion: kubeflow.org/v1
                        kind: PyTorchJob
                        metadata: {name: ft, namespace: ml}
                        spec:
                          pytorchReplicaSpecs:
                            Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: t, resources: {limits: {nvidia.com/gpu: "4"}}}]}}}
                            Worker: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: t, resources: {limits: {nvidia.com/gpu: "4"}}}]}}}
                        """;
                JsonNode plan = Documents.json()
                        .readTree(http.toBlocking()
                                .retrieve(HttpRequest.POST("/api/v1/plan", job)
                                        .contentType("application/yaml")
                                        .bearerAuth(TOKEN)));
                assertThat(plan.path("decision").asText()).isEqualTo("Placed");
                assertThat(plan.path("cluster").asText()).isEqualTo("east");
                assertThat(plan.path("assignments")).hasSize(2);
                assertThat(plan.path("clusters").toString()).contains("largest free block 3");
                assertThat(get(http, "/api/v1/placements").path("placements")).isEmpty(); // nothing placed
                assertThat(get(http, "/api/v1/fleet")
                                .path("totals")
                                .path("reserved")
                                .asLong())
                        .isZero();

                HttpClientResponseException bad = org.junit.jupiter.api.Assertions.assertThrows(
                        HttpClientResponseException.class,
                        () -> http.toBlocking()
                                .retrieve(HttpRequest.POST(
                                                "/api/v1/plan",
                                                "{\"apiVersion\":\"x/v1\",\"kind\":\"Nope\","
                                                        + "\"metadata\":{\"name\":\"n\"}}")
                                        .contentType(MediaType.APPLICATION_JSON)
                                        .bearerAuth(TOKEN)));
                assertThat(bad.getStatus().getCode()).isEqualTo(422);
                assertThat(bad.getResponse().getBody(String.class).orElse("")).contains("no_definition");

                // nothing placed: no GPU time, by queue unless asked otherwise (the leader's ledger or P.usage)
                JsonNode usage = get(http, "/api/v1/usage?since=7d");
                assertThat(usage.path("by").asText()).isEqualTo("queue");
                assertThat(usage.path("rows")).isEmpty();

                String openapi = http.toBlocking().retrieve(HttpRequest.GET("/openapi/cartograph-broker-v1.yml"));
                assertThat(openapi)
                        .contains(
                                "/api/v1/fleet",
                                "/api/v1/fleet/domains",
                                "/api/v1/plan",
                                "/api/v1/workloads",
                                "/api/v1/placements",
                                "/api/v1/usage");
                assertThat(http.toBlocking().retrieve(HttpRequest.GET("/health")))
                        .contains("\"status\":\"UP\"");
            }
        }
    }

    static JsonNode get(HttpClient http, String path) {
        try {
            return Documents.json()
                    .readTree(http.toBlocking().retrieve(HttpRequest.GET(path).bearerAuth(TOKEN)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
