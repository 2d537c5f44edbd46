package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.fault.ActiveFault;
import dev.cartograph.mock.fault.Fault;
import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.fault.RequestMatch;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watch faults as clients meet them: a watch expired (ended cleanly, as at the server's timeout), a watch resuming
 * from before a compaction ({@code 410 Expired} in an ERROR event), and a list served stale; read raw, then through a
 * fabric8 informer, which must end with the right store. A fresh server per test: stale lists count changes.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WatchFaultsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String CONFIGMAPS = "/api/v1/namespaces/%s/configmaps";

    private MockApiServer server;
    private KubernetesClient informing;

    @BeforeEach
    void start() {
        server = MockApiServer.start();
        // as an informer's client: watches re-made 100 ms after they end (then backing off), no HTTP retries of its own
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url())
                .withHttp2Disable(true)
                .withWatchReconnectInterval(100)
                .withRequestRetryBackoffLimit(0)
                .build();
        informing = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterEach
    void stop() {
        informing.close();
        server.close();
    }

    @Test
    void expiringWatchesEndsTheMatchingStreamsCleanlyAndLeavesTheOthers() throws Exception {
        try (Lines expiring = watch(CONFIGMAPS.formatted("a") + "?watch=true");
                Lines staying = watch(CONFIGMAPS.formatted("b") + "?watch=true")) {
            await(() -> server.openWatches() == 2, "two watches open");

            int expired = server.faults().expireWatches(Pattern.compile("/api/v1/namespaces/a/.*"));
            create("b", configMap("still-watched", "v1"));

            assertThat(expired).isEqualTo(1);
            assertThat(expiring.awaitEnd())
                    .as("ended with the last chunk, as at timeoutSeconds")
                    .isTrue();
            JsonNode added = staying.next();
            assertThat(added.path("type").asText()).isEqualTo("ADDED");
            assertThat(added.path("object").path("metadata").path("name").asText())
                    .isEqualTo("still-watched");
        }
    }

    @Test
    void aWatchResumingFromBeforeTheCompactionGetsOne410ExpiredErrorEvent() throws Exception {
        String first = create("ml", configMap("one", "v1"));
        create("ml", configMap("two", "v1"));
        long compactedAt = server.faults().compact();

        try (Lines resumed = watch(CONFIGMAPS.formatted("ml") + "?watch=true&resourceVersion=" + first)) {
            // kube-apiserver's watch cache: errors.NewResourceExpired("too old resource version: %d (%d)")
            assertThat(resumed.next())
                    .isEqualTo(
                            JSON.readTree("{\"type\":\"ERROR\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Status\","
                                    + "\"code\":410,\"message\":\"too old resource version: " + first + " ("
                                    + compactedAt
                                    + ")\",\"metadata\":{},\"reason\":\"Expired\",\"status\":\"Failure\"}}"));
            assertThat(resumed.awaitEnd()).isTrue();
        }
        try (Lines current = watch(CONFIGMAPS.formatted("ml") + "?watch=true&resourceVersion=" + compactedAt)) {
            create("ml", configMap("three", "v1"));
            assertThat(current.next()
                            .path("object")
                            .path("metadata")
                            .path("name")
                            .asText())
                    .as("a watch from the compaction point itself resumes")
                    .isEqualTo("three");
        }
    }

    @Test
    void aFabric8WatchOverWebSocketFromACompactedResourceVersionClosesWithHttpGone() throws Exception {
        String first = create("ml", configMap("one", "v1"));
        create("ml", configMap("two", "v1"));
        server.faults().compact();
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();

        try (Watch ignored = informing
                .configMaps()
                .inNamespace("ml")
                .watch(new ListOptionsBuilder().withResourceVersion(first).build(), new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {}

                    @Override
                    public void onClose(WatcherException cause) {
                        closed.complete(cause);
                    }
                })) {
            WatcherException cause = closed.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
            assertThat(cause.isHttpGone()).isTrue();
            assertThat(cause.getMessage()).startsWith("too old resource version: " + first);
        }
    }

    @Test
    void anInformerWatchesAgainAfterExpiryAndReplaysWhatChangedMeanwhileWithoutListing() throws Exception {
        create("inform", configMap("a", "v1"));
        create("inform", configMap("b", "v1"));
        Recorded events = new Recorded();
        SharedIndexInformer<ConfigMap> informer =
                informing.configMaps().inNamespace("inform").inform(events);
        try {
            await(() -> names(informer).equals(List.of("a=v1", "b=v1")), "the informer listed a and b");
            await(() -> server.openWatches() == 1, "the informer watches, after its list");
            ActiveFault blocked = blockWatches("inform");

            assertThat(server.faults().expireWatches(Pattern.compile(CONFIGMAPS.formatted("inform"))))
                    .isEqualTo(1);
            await(() -> blocked.fired() >= 1, "the informer tried to watch again and was refused");
            delete("inform", "a");
            update("inform", "b", "v2");
            create("inform", configMap("c", "v1"));
            server.faults().remove(blocked);

            await(() -> names(informer).equals(List.of("b=v2", "c=v1")), "the informer caught up");
            await(() -> events.seen().size() == 5, "its handler was told"); // after the store, on its own thread
            assertThat(events.seen()).containsExactly("add a=v1", "add b=v1", "delete a=v1", "update b=v2", "add c=v1");
            assertThat(lists("inform"))
                    .as("it resumed from its resourceVersion, no list again")
                    .isEqualTo(1);
        } finally {
            informer.close();
        }
    }

    @Test
    void anInformerThatMissedACompactedChangeListsAgainAfter410AndEndsWithTheRightStore() throws Exception {
        create("inform", configMap("a", "v1"));
        create("inform", configMap("b", "v1"));
        Recorded events = new Recorded();
        SharedIndexInformer<ConfigMap> informer =
                informing.configMaps().inNamespace("inform").inform(events);
        try {
            await(() -> names(informer).equals(List.of("a=v1", "b=v1")), "the informer listed a and b");
            await(() -> server.openWatches() == 1, "the informer watches, after its list");
            ActiveFault blocked = blockWatches("inform");

            assertThat(server.faults().expireWatches()).isEqualTo(1);
            await(() -> blocked.fired() >= 1, "the informer tried to watch again and was refused");
            delete("inform", "a");
            update("inform", "b", "v2");
            create("inform", configMap("c", "v1"));
            server.faults().compact();
            server.faults().remove(blocked);

            await(() -> names(informer).equals(List.of("b=v2", "c=v1")), "the informer listed again");
            await(() -> events.seen().size() == 5, "its handler was told");
            assertThat(lists("inform"))
                    .as("the first list, and one after 410 Expired")
                    .isEqualTo(2);
            // the list again is told apart from the store: a gone, b updated, c added
            assertThat(events.seen())
                    .containsExactlyInAnyOrder("add a=v1", "add b=v1", "delete a=v1", "update b=v2", "add c=v1");
        } finally {
            informer.close();
        }
    }

    @Test
    void aStaleListIsTheListAsItWasWithThatResourceVersion() throws Exception {
        create("ml", configMap("a", "v1"));
        String bCreated = create("ml", configMap("b", "v1"));
        update("ml", "a", "v2");
        delete("ml", "b");
        server.faults()
                .add(FaultRule.on(RequestMatch.verbs("list").resource("", "configmaps"), Fault.staleList(2))
                        .forNext(1));

        JsonNode stale = JSON.readTree(get(CONFIGMAPS.formatted("ml")));
        JsonNode fresh = JSON.readTree(get(CONFIGMAPS.formatted("ml")));

        // two changes undone (b deleted, a updated): as it was after b was created
        assertThat(itemNames(stale)).containsExactlyInAnyOrder("a=v1", "b=v1");
        assertThat(stale.path("metadata").path("resourceVersion").asText()).isEqualTo(bCreated);
        assertThat(stale.path("kind").asText()).isEqualTo("ConfigMapList");
        assertThat(itemNames(fresh)).containsExactly("a=v2");
    }

    @Test
    void anInformerStartedOnAStaleListIsBroughtUpToDateByItsWatch() throws Exception {
        create("inform", configMap("a", "v1"));
        create("inform", configMap("b", "v1"));
        update("inform", "a", "v2");
        delete("inform", "b");
        server.faults()
                .add(FaultRule.on(RequestMatch.verbs("list").resource("", "configmaps"), Fault.staleList(2))
                        .forNext(1));
        Recorded events = new Recorded();
        SharedIndexInformer<ConfigMap> informer =
                informing.configMaps().inNamespace("inform").inform(events);
        try {
            await(() -> names(informer).equals(List.of("a=v2")), "the informer caught up");
            await(() -> events.seen().size() == 4, "its handler was told");
            // listed as it was two changes ago, then the watch from there replayed both
            assertThat(events.seen()).containsExactly("add a=v1", "add b=v1", "update a=v2", "delete b=v1");
        } finally {
            informer.close();
        }
    }

    private ActiveFault blockWatches(String namespace) {
        return server.faults()
                .add(FaultRule.on(
                                RequestMatch.verbs("watch")
                                        .resource("", "configmaps")
                                        .namespace(namespace),
                                Fault.internalError("watches are refused for this test"))
                        .named("no-watches"));
    }

    private long lists(String namespace) {
        return server.requestLog().entries().stream()
                .filter(r -> "list".equals(r.verb()) && r.uri().startsWith(CONFIGMAPS.formatted(namespace)))
                .count();
    }

    /** Creates {@code configMap} in {@code namespace}; its resourceVersion. */
    private String create(String namespace, ConfigMap configMap) {
        return server.client()
                .configMaps()
                .inNamespace(namespace)
                .resource(configMap)
                .create()
                .getMetadata()
                .getResourceVersion();
    }

    private void update(String namespace, String name, String value) {
        server.client().configMaps().inNamespace(namespace).withName(name).edit(c -> {
            c.setData(Map.of("v", value));
            return c;
        });
    }

    private void delete(String namespace, String name) {
        server.client().configMaps().inNamespace(namespace).withName(name).delete();
    }

    private static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("v", value)
                .build();
    }

    private static List<String> names(SharedIndexInformer<ConfigMap> informer) {
        return informer.getStore().list().stream()
                .map(WatchFaultsIT::nameAndValue)
                .sorted()
                .toList();
    }

    private static String nameAndValue(ConfigMap c) {
        return c.getMetadata().getName() + "=" + c.getData().get("v");
    }

    private static List<String> itemNames(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.path("items")
                .forEach(i -> names.add(i.path("metadata").path("name").asText() + "="
                        + i.path("data").path("v").asText()));
        return names;
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private Lines watch(String path) throws Exception {
        HttpResponse<InputStream> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return new Lines(response.body());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Instant deadline = Instant.now().plus(WITHIN);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + WITHIN + ": " + what);
            }
            Thread.sleep(20);
        }
    }

    /** What an informer's handler was told, in order. */
    private static final class Recorded implements ResourceEventHandler<ConfigMap> {
        private final List<String> seen = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onAdd(ConfigMap obj) {
            seen.add("add " + nameAndValue(obj));
        }

        @Override
        public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
            if (!oldObj.getMetadata()
                    .getResourceVersion()
                    .equals(newObj.getMetadata().getResourceVersion())) {
                seen.add("update " + nameAndValue(newObj));
            }
        }

        @Override
        public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
            seen.add("delete " + nameAndValue(obj));
        }

        List<String> seen() {
            return List.copyOf(seen);
        }
    }

    /** The lines of a watch response, read by a thread of its own; an empty line marks a clean end. */
    private static final class Lines implements AutoCloseable {
        private static final String END = "";
        private final InputStream body;
        private final java.util.concurrent.BlockingQueue<String> lines =
                new java.util.concurrent.LinkedBlockingQueue<>();

        Lines(InputStream body) {
            this.body = body;
            Thread reader = new Thread(
                    () -> {
                        try (BufferedReader in =
                                new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                            for (String line = in.readLine(); line != null; line = in.readLine()) {
                                lines.add(line);
                            }
                            lines.add(END);
                        } catch (java.io.IOException e) {
                            // cut, or closed by the test: no END
                        }
                    },
                    "watch-reader");
            reader.setDaemon(true);
            reader.start();
        }

        JsonNode next() throws Exception {
            String line = lines.poll(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(line).as("a watch event within " + WITHIN).isNotNull().isNotEqualTo(END);
            return JSON.readTree(line);
        }

        /** Whether the stream ended cleanly (HTTP's last chunk) within the wait. */
        boolean awaitEnd() throws InterruptedException {
            Instant deadline = Instant.now().plus(WITHIN);
            while (Instant.now().isBefore(deadline)) {
                if (END.equals(lines.poll(100, TimeUnit.MILLISECONDS))) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws java.io.IOException {
            body.close();
        }
    }
}
