package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.kube.crd.CatalogCrds;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Watches over HTTP as client-go makes them (chunked WatchEvents, one JSON object per line), read
 * here with the JDK's HTTP client, so this runs without kubectl; and the fabric8 client's WebSocket
 * watches, which must keep working beside them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpWatchIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    private static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withKind("PyTorchJob")
            .withPlural("pytorchjobs")
            .withNamespaced(true)
            .build();
    private static final String JOBS = "/apis/kubeflow.org/v1/namespaces/%s/pytorchjobs";

    private static MockApiServer server;

    @BeforeAll
    static void start() {
        server = MockApiServer.start(MockApiServer.Options.defaults()
                .withCrds(CatalogCrds.of(Catalog.load().definitions())));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aWatchFromAListsResourceVersionStreamsTheChangesAfterIt() throws Exception {
        jobs("after-list").resource(job("listed", "nlp")).create();
        String resourceVersion = JSON.readTree(
                        get(JOBS.formatted("after-list"), "application/json").body())
                .path("metadata")
                .path("resourceVersion")
                .asText();

        try (Stream watch = watch(
                JOBS.formatted("after-list") + "?watch=true&resourceVersion=" + resourceVersion, "application/json")) {
            jobs("after-list").resource(job("new", "nlp")).create();
            jobs("after-list").withName("new").edit(j -> {
                j.getMetadata().getLabels().put("team", "cv");
                return j;
            });
            jobs("after-list").withName("new").delete();

            JsonNode added = watch.next();
            JsonNode modified = watch.next();
            JsonNode deleted = watch.next();
            assertThat(List.of(added, modified, deleted))
                    .extracting(e -> e.path("type").asText())
                    .containsExactly("ADDED", "MODIFIED", "DELETED");
            assertThat(List.of(added, modified, deleted))
                    .extracting(
                            e -> e.path("object").path("metadata").path("name").asText())
                    .containsOnly("new");
            assertThat(modified.path("object")
                            .path("metadata")
                            .path("labels")
                            .path("team")
                            .asText())
                    .isEqualTo("cv");
            assertThat(rv(added)).isGreaterThan(Long.parseLong(resourceVersion));
            assertThat(rv(modified)).isGreaterThan(rv(added));
            assertThat(rv(deleted)).isGreaterThan(rv(modified));
            assertThat(watch.response().headers().firstValue("Content-Type")).contains("application/json");
        }
    }

    @Test
    void aWatchWithoutResourceVersionFirstAddsWhatExistsAsOneRowTables() throws Exception {
        jobs("from-now").resource(job("first", "nlp")).create();
        try (Stream watch = watch(JOBS.formatted("from-now") + "?watch=1", TABLE)) {
            JsonNode existing = watch.next();
            assertThat(existing.path("type").asText()).isEqualTo("ADDED");
            JsonNode table = existing.path("object");
            assertThat(table.path("kind").asText()).isEqualTo("Table");
            assertThat(table.path("columnDefinitions").findValuesAsText("name"))
                    .containsExactly("Name", "Cluster", "Phase", "Age");
            assertThat(table.path("rows")).hasSize(1);
            assertThat(table.path("rows").get(0).path("cells").get(0).asText()).isEqualTo("first");
            assertThat(table.path("rows").get(0).path("object").path("kind").asText())
                    .isEqualTo("PartialObjectMetadata");

            jobs("from-now").resource(job("second", "nlp")).create();
            assertThat(watch.next()
                            .path("object")
                            .path("rows")
                            .get(0)
                            .path("cells")
                            .get(0)
                            .asText())
                    .isEqualTo("second");
        }
    }

    @Test
    void labelAndFieldSelectorsNarrowTheStreamAndLeavingTheSelectionIsADelete() throws Exception {
        try (Stream watch = watch(
                JOBS.formatted("selected") + "?watch=true&labelSelector=team%3Dnlp"
                        + "&fieldSelector=metadata.name%21%3Dignored",
                "application/json")) {
            jobs("selected").resource(job("other-team", "cv")).create();
            jobs("selected").resource(job("ignored", "nlp")).create();
            jobs("selected").resource(job("chosen", "nlp")).create();
            jobs("selected").withName("chosen").edit(j -> {
                j.getMetadata().getLabels().put("team", "cv");
                return j;
            });

            JsonNode added = watch.next();
            JsonNode left = watch.next();
            assertThat(added.path("type").asText()).isEqualTo("ADDED");
            assertThat(added.path("object").path("metadata").path("name").asText())
                    .isEqualTo("chosen");
            assertThat(left.path("type").asText()).isEqualTo("DELETED");
            assertThat(left.path("object").path("metadata").path("name").asText())
                    .isEqualTo("chosen");
        }
    }

    @Test
    void builtInKindsAreWatchedToo() throws Exception {
        try (Stream watch = watch("/api/v1/namespaces/cm/configmaps?watch=true", "application/json")) {
            server.client()
                    .configMaps()
                    .inNamespace("cm")
                    .resource(configMap("settings"))
                    .create();
            JsonNode added = watch.next();
            assertThat(added.path("object").path("kind").asText()).isEqualTo("ConfigMap");
            assertThat(added.path("object").path("data").path("mode").asText()).isEqualTo("fast");
        }
    }

    @Test
    void timeoutSecondsEndsTheStreamAndALeavingClientEndsItsWatch() throws Exception {
        try (Stream watch = watch(JOBS.formatted("timed") + "?watch=true&timeoutSeconds=1", "application/json")) {
            assertThat(watch.awaitEnd(WITHIN))
                    .as("the stream ended after timeoutSeconds")
                    .isTrue();
        }
        awaitOpenWatches(0);

        Stream leaving = watch(JOBS.formatted("timed") + "?watch=true", "application/json");
        awaitOpenWatches(1);
        leaving.close();
        awaitOpenWatches(0);
    }

    @Test
    void closingTheServerEndsItsWatchesCleanly() throws Exception {
        MockApiServer closing = MockApiServer.start();
        HttpResponse<InputStream> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(closing.url() + "/api/v1/namespaces/ml/configmaps?watch=true"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (Stream watch = new Stream(response)) {
            closing.close();
            assertThat(watch.awaitEnd(WITHIN)).isTrue();
            assertThat(watch.endedCleanly())
                    .as("ended with the last chunk, so kubectl get -w exits without an error")
                    .isTrue();
        }
    }

    @Test
    void refusesWhatItCannotWatch() throws Exception {
        HttpResponse<String> unknown =
                get("/apis/kubeflow.org/v1/namespaces/ml/nothings?watch=true", "application/json");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("kind").asText()).isEqualTo("Status");
        assertThat(get(JOBS.formatted("ml") + "?watch=true&fieldSelector=nonsense", "application/json")
                        .statusCode())
                .isEqualTo(400);
        assertThat(get(JOBS.formatted("ml") + "?watch=true&resourceVersion=abc", "application/json")
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void theFabric8ClientStillWatchesOverWebSocket() throws Exception {
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        try (Watch watch = server.client().configMaps().inNamespace("websocket").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap resource) {
                seen.add(action + " " + resource.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            server.client()
                    .configMaps()
                    .inNamespace("websocket")
                    .resource(configMap("over-websocket"))
                    .create();
            assertThat(seen.poll(WITHIN.toSeconds(), TimeUnit.SECONDS)).isEqualTo("ADDED over-websocket");
        }
        awaitOpenWatches(0);
    }

    private static long rv(JsonNode event) {
        return Long.parseLong(
                event.path("object").path("metadata").path("resourceVersion").asText());
    }

    private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
                    GenericKubernetesResource,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
                    io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
            jobs(String namespace) {
        return server.client().genericKubernetesResources(PYTORCHJOBS).inNamespace(namespace);
    }

    private static GenericKubernetesResource job(String name, String team) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("kubeflow.org/v1")
                .withKind("PyTorchJob")
                .withNewMetadata()
                .withName(name)
                .addToLabels("team", team)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("pytorchReplicaSpecs", Map.of()))
                .build();
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("mode", "fast")
                .build();
    }

    private static void awaitOpenWatches(int count) throws InterruptedException {
        Instant deadline = Instant.now().plus(WITHIN);
        while (server.openWatches() != count) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("expected " + count + " open watches, there are " + server.openWatches());
            }
            Thread.sleep(20);
        }
    }

    private static HttpResponse<String> get(String path, String accept) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Accept", accept)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Stream watch(String path, String accept) throws Exception {
        HttpResponse<InputStream> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Accept", accept)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return new Stream(response);
    }

    /** The lines of a watch response, read by a thread of its own. */
    private static final class Stream implements AutoCloseable {
        private static final String END = "";
        private final HttpResponse<InputStream> response;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private volatile boolean endedCleanly;

        Stream(HttpResponse<InputStream> response) {
            this.response = response;
            Thread reader = new Thread(
                    () -> {
                        try (BufferedReader in =
                                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                            for (String line = in.readLine(); line != null; line = in.readLine()) {
                                lines.add(line);
                            }
                            endedCleanly = true;
                        } catch (IOException e) {
                            // closed by the test
                        } finally {
                            lines.add(END);
                        }
                    },
                    "watch-reader");
            reader.setDaemon(true);
            reader.start();
        }

        HttpResponse<InputStream> response() {
            return response;
        }

        JsonNode next() throws Exception {
            String line = lines.poll(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(line).as("a watch event within " + WITHIN).isNotNull().isNotEqualTo(END);
            return JSON.readTree(line);
        }

        /** Whether the response ended with HTTP's end of body, not a cut connection. */
        boolean endedCleanly() {
            return endedCleanly;
        }

        boolean awaitEnd(Duration timeout) throws InterruptedException {
            Instant deadline = Instant.now().plus(timeout);
            while (Instant.now().isBefore(deadline)) {
                if (END.equals(lines.poll(100, TimeUnit.MILLISECONDS))) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws IOException {
            response.body().close();
        }
    }
}
