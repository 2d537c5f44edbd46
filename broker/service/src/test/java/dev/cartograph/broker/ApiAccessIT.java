package dev.cartograph.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.testing.Eventually;
import dev.cartograph.kafka.testing.TestKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST API in its default mode, against a hub that reviews tokens and permissions like a real API
 * server ({@link HubReviews}): alice may get PyTorchJobs in team-a, bob in team-b, carol may create them
 * in team-a; no one else is known.
 */
@Timeout(180)
class ApiAccessIT {
    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();
    String base;

    record Answer(int status, JsonNode body, HttpResponse<String> raw) {}

    @Test
    void callersSeeOnlyWhatTheHubLetsThemSeeAndAHubThatCannotSayIsA503() throws Exception {
        try (TestKafka kafka = TestKafka.start(dir.resolve("kafka"));
                Federation fed = new Federation(kafka::bootstrapServers)) {
            fed.member("west", "NVIDIA-H100-80GB-HBM3", 4);
            fed.reviews
                    .user("token-alice", "alice", "team-a")
                    .user("token-bob", "bob")
                    .user("token-carol", "carol")
                    .allow("alice", "get", "kubeflow.org", "pytorchjobs", "team-a")
                    .allow("bob", "get", "kubeflow.org", "pytorchjobs", "team-b")
                    .allow("carol", "create", "kubeflow.org", "pytorchjobs", "team-a");
            String a = fed.submitPyTorchJob("team-a", "a-job", 1, 1, "")
                    .getMetadata()
                    .getUid();
            String b = fed.submitPyTorchJob("team-b", "b-job", 1, 1, "")
                    .getMetadata()
                    .getUid();
            try (EmbeddedServer server = ApplicationContext.run(
                    EmbeddedServer.class,
                    Map.of(
                            "micronaut.server.port",
                            "-1",
                            "cartograph.broker.bootstrap-servers",
                            kafka.bootstrapServers(),
                            "cartograph.broker.topic-prefix",
                            fed.prefix,
                            "cartograph.broker.kubeconfig",
                            fed.writeHubKubeconfig(dir.resolve("hub.kubeconfig"))
                                    .toString(),
                            "cartograph.broker.topic-replication-factor",
                            "1",
                            "cartograph.broker.topic-min-insync-replicas",
                            "1"))) {
                base = server.getURL().toString();

                Answer none = get("/api/v1/fleet", null);
                assertThat(none.status()).isEqualTo(401);
                assertThat(none.raw().headers().firstValue("WWW-Authenticate"))
                        .hasValueSatisfying(h -> assertThat(h).startsWith("Bearer"));
                assertThat(none.body().at("/error/message").asText()).contains("no bearer token");
                Answer wrong = get("/api/v1/workloads", "token-mallory");
                assertThat(wrong.status()).isEqualTo(401);
                assertThat(wrong.body().at("/error/message").asText())
                        .isEqualTo("the hub does not accept this token: invalid bearer token");
                assertThat(get("/health", null).status()).isEqualTo(200);

                // fleet capacity: any authenticated caller, with no RBAC rule about it
                Eventually.asserted(
                        Duration.ofSeconds(60),
                        () -> assertThat(get("/api/v1/fleet", "token-carol")
                                        .body()
                                        .path("clusters"))
                                .hasSize(1));
                assertThat(get("/api/v1/clusters/west", "token-bob").status()).isEqualTo(200);
                assertThat(get("/api/v1/fleet/domains", "token-carol").status()).isEqualTo(200);
                assertThat(get("/api/v1/fleet/domains", null).status()).isEqualTo(401);

                // both placed (bob sees b-job), then each tenant's list has its own namespace's only
                Eventually.asserted(Duration.ofSeconds(60), () -> {
                    assertThat(names(get("/api/v1/workloads", "token-bob"))).isEqualTo("[team-b/b-job]");
                    assertThat(names(get("/api/v1/workloads", "token-alice"))).isEqualTo("[team-a/a-job]");
                });
                assertThat(get("/api/v1/placements", "token-alice").body().path("placements"))
                        .hasSize(1)
                        .allSatisfy(p -> assertThat(p.path("uid").asText()).isEqualTo(a));
                assertThat(names(get("/api/v1/workloads", "token-carol"))).isEqualTo("[]"); // create is not get

                assertThat(get("/api/v1/workloads/" + a, "token-alice")
                                .body()
                                .path("name")
                                .asText())
                        .isEqualTo("a-job");
                Answer theirs = get("/api/v1/workloads/" + b, "token-alice");
                assertThat(theirs.status()).isEqualTo(403);
                assertThat(theirs.body().at("/error/message").asText())
                        .isEqualTo("alice may not get pytorchjobs.kubeflow.org in namespace team-b");
                assertThat(theirs.body().at("/error/verb").asText()).isEqualTo("get");
                assertThat(theirs.body().at("/error/resource").asText()).isEqualTo("pytorchjobs");
                assertThat(theirs.body().at("/error/namespace").asText()).isEqualTo("team-b");

                Answer noCreate = post("/api/v1/plan", job("team-a"), "token-alice");
                assertThat(noCreate.status()).isEqualTo(403);
                assertThat(noCreate.body().at("/error/message").asText())
                        .isEqualTo("alice may not create pytorchjobs.kubeflow.org in namespace team-a");
                Answer planned = post("/api/v1/plan", job("team-a"), "token-carol");
                assertThat(planned.status()).isEqualTo(200);
                assertThat(planned.body().path("decision").asText()).isEqualTo("Placed");

                // alice's identity and get in team-a are kept for 10 s: no second TokenReview for her calls
                int reviews = fed.reviews.tokenReviews.get();
                get("/api/v1/workloads", "token-alice");
                get("/api/v1/fleet", "token-alice");
                assertThat(fed.reviews.tokenReviews.get()).isEqualTo(reviews);

                fed.reviews.down = true;
                Answer unknownToken = get("/api/v1/fleet", "token-bob-new");
                assertThat(unknownToken.status()).isEqualTo(503);
                assertThat(unknownToken.body().at("/error/message").asText())
                        .contains("could not review the token", "HTTP 503");
                // a known caller, a question not asked before: the hub cannot answer it, so no
                Answer unknownAnswer = post("/api/v1/plan", job("team-c"), "token-carol");
                assertThat(unknownAnswer.status()).isEqualTo(503);
                assertThat(unknownAnswer.body().at("/error/message").asText())
                        .contains(
                                "could not say whether carol may create pytorchjobs.kubeflow.org in namespace team-c");
                assertThat(get("/health", null).status()).isEqualTo(200);
            }
        }
    }

    static String job(String namespace) {
        return """
                {"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"p","namespace":"%s"},
                 "spec":{"pytorchReplicaSpecs":{"Master":{"replicas":1,"template":{"spec":{"containers":[
                   {"name":"pytorch","image":"t","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}}}}}}
                """.formatted(namespace);
    }

    /** {@code [namespace/name, …]} of a workload list. */
    static String names(Answer a) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (JsonNode w : a.body().path("workloads")) {
            out.add(w.path("namespace").asText() + "/" + w.path("name").asText());
        }
        return out.toString();
    }

    Answer get(String path, String token) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), token);
    }

    Answer post(String path, String json, String token) {
        return send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)),
                token);
    }

    private Answer send(HttpRequest.Builder request, String token) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().isBlank()
                    ? Documents.json().createObjectNode()
                    : Documents.json().readTree(r.body());
            return new Answer(r.statusCode(), body, r);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
