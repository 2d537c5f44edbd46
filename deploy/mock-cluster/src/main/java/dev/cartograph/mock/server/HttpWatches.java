package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.selector.FieldSelector;
import dev.cartograph.mock.table.IncludeObject;
import dev.cartograph.mock.table.Tables;
import dev.cartograph.mock.watch.ChangeLog;
import dev.cartograph.mock.watch.Selection;
import dev.cartograph.mock.watch.WatchEvent;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Watches over HTTP, as kubectl and client-go make them ({@code GET COLLECTION?watch=true}, no
 * WebSocket upgrade; the CRUD dispatcher only serves WebSocket watches, which the fabric8 client
 * uses): a chunked stream of WatchEvents for every resource type discovery serves, with one-row
 * Tables as objects when the {@code Accept} header asks for {@code as=Table}. Label selectors match
 * as in the store's lists, field selectors on any field as in {@link ResourceReads}. Semantics of
 * {@code resourceVersion}: absent or {@code 0}, first an ADDED event per object that exists now;
 * a number, the changes after it (from the {@link ChangeLog}; 410 Expired when no longer retained).
 * {@code timeoutSeconds} ends the stream. Thread-safe: each stream lives on its connection's event loop.
 */
final class HttpWatches {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final RecordingCrudDispatcher store;
    private final ChangeLog changes;
    private final ServedTypes types;
    private final Clock clock;
    private final Set<WatchStream> open = ConcurrentHashMap.newKeySet();

    HttpWatches(RecordingCrudDispatcher store, ChangeLog changes, ServedTypes types, Clock clock) {
        this.store = store;
        this.changes = changes;
        this.types = types;
        this.clock = clock;
    }

    /** Whether {@code request} is a watch over plain HTTP (a WebSocket upgrade goes to the CRUD dispatcher). */
    static boolean isHttpWatch(HttpServerRequest request) {
        return request.method() == HttpMethod.GET
                && Query.of(request.uri()).isWatch()
                && !"websocket".equalsIgnoreCase(String.valueOf(request.getHeader("Upgrade")));
    }

    /** Answers {@code request}; to be called on its connection's event loop. */
    void serve(HttpServerRequest request) {
        Query query = Query.of(request.uri());
        Optional<ResourcePath> resource = ResourcePath.parse(request.path());
        Optional<ServedTypes.ServedType> type = resource.flatMap(types::of);
        if (type.isEmpty()) {
            reply(
                    request,
                    Responses.status(
                            404,
                            "NotFound",
                            "the server could not find the requested resource to watch at " + request.path()));
            return;
        }
        FieldSelector.Parsed fields =
                FieldSelector.parse(query.get("fieldSelector").orElse(""));
        if (fields instanceof FieldSelector.Invalid invalid) {
            reply(request, Responses.status(400, "BadRequest", invalid.reason()));
            return;
        }
        OptionalLong from;
        try {
            from = startingResourceVersion(query);
        } catch (NumberFormatException e) {
            reply(
                    request,
                    Responses.status(
                            400,
                            "BadRequest",
                            "resourceVersion: Invalid value: \""
                                    + query.get("resourceVersion").orElse("") + "\": must be a number"));
            return;
        }
        Selection selection = selection(resource.get(), query, ((FieldSelector.Valid) fields).selector());
        WatchStream stream = new WatchStream(
                Vertx.currentContext(), request.response(), selection, renderer(request, query, type.get()));
        start(stream, resource.get(), query, selection, from);
        query.get("timeoutSeconds")
                .filter(s -> s.matches("\\d{1,9}"))
                .map(Long::parseLong)
                .ifPresent(stream::endAfter);
    }

    /** How many HTTP watches are open now (for tests and diagnostics). */
    int openCount() {
        return open.size();
    }

    /**
     * Ends every open watch with a clean end of stream (so {@code kubectl get -w} exits instead of reporting a cut
     * connection); waits up to {@code patience} for them, then stops listening for any left.
     */
    void closeAll(Duration patience) {
        List<WatchStream> streams = new ArrayList<>(open);
        streams.forEach(WatchStream::endSoon);
        Instant deadline = Instant.now().plus(patience);
        while (!open.isEmpty() && Instant.now().isBefore(deadline)) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        streams.forEach(s -> s.listening().ifPresent(ChangeLog.Subscription::close));
        open.clear();
    }

    private void start(WatchStream stream, ResourcePath resource, Query query, Selection selection, OptionalLong from) {
        open.add(stream);
        stream.onEnd(() -> open.remove(stream));
        if (from.isPresent()) {
            ChangeLog.Subscribed subscribed = changes.subscribe(from.getAsLong(), stream.listener());
            if (subscribed instanceof ChangeLog.Expired expired) {
                stream.send(new WatchEvent(WatchEvent.Type.ERROR, expiredStatus(expired)));
                stream.end();
                return;
            }
            stream.open((ChangeLog.Subscription) subscribed, from.getAsLong());
            return;
        }
        // listen first, then list: a change made in between is in both, and the resourceVersion filter drops it
        ChangeLog.Subscription listening = changes.subscribe(stream.listener());
        JsonNode list = snapshot(resource, query);
        stream.open(listening, list.path("metadata").path("resourceVersion").asLong(0));
        for (JsonNode item : list.path("items")) {
            if (selection.fields().matches(item)) {
                stream.send(new WatchEvent(WatchEvent.Type.ADDED, item));
            }
        }
    }

    private JsonNode snapshot(ResourcePath resource, Query query) {
        MockResponse stored = store.handleGet(collectionPath(resource) + labelQuery(query));
        try {
            return MAPPER.readTree(stored.getBody().readUtf8());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "the CRUD store returned no readable list for " + collectionPath(resource)
                            + " (a mock bug; retry will not help)",
                    e);
        }
    }

    private Selection selection(ResourcePath resource, Query query, FieldSelector fields) {
        AttributeSet key = store.getKey(collectionPath(resource) + labelQuery(query));
        if (resource.name().isPresent()) {
            key = key.add(new Attribute("name", resource.name().get()));
            List<FieldSelector.Requirement> requirements = new ArrayList<>(fields.requirements());
            requirements.add(new FieldSelector.Requirement(
                    "metadata.name", true, resource.name().get()));
            fields = new FieldSelector(requirements);
        }
        return new Selection(key, fields);
    }

    private Function<JsonNode, JsonNode> renderer(HttpServerRequest request, Query query, ServedTypes.ServedType type) {
        if (!String.valueOf(request.getHeader("Accept")).contains("as=Table")) {
            return Function.identity();
        }
        IncludeObject include =
                IncludeObject.fromParameter(query.get("includeObject").orElse(null));
        return object -> Tables.ofObject(type.columns(), object, include, clock.instant());
    }

    /** Empty for "from now, with the current objects first" ({@code resourceVersion} absent, empty or 0). */
    private static OptionalLong startingResourceVersion(Query query) {
        String value = query.get("resourceVersion").orElse("");
        if (value.isEmpty() || "0".equals(value)) {
            return OptionalLong.empty();
        }
        long parsed = Long.parseLong(value);
        if (parsed < 0) {
            throw new NumberFormatException("negative");
        }
        return OptionalLong.of(parsed);
    }

    private static String collectionPath(ResourcePath resource) {
        String prefix = resource.group().isEmpty()
                ? "/api/" + resource.version()
                : "/apis/" + resource.group() + "/" + resource.version();
        return prefix + resource.namespace().map(ns -> "/namespaces/" + ns).orElse("") + "/" + resource.plural();
    }

    private static String labelQuery(Query query) {
        return query.get("labelSelector")
                .filter(s -> !s.isBlank())
                .map(s -> "?labelSelector=" + URLEncoder.encode(s, StandardCharsets.UTF_8))
                .orElse("");
    }

    private static JsonNode expiredStatus(ChangeLog.Expired expired) {
        return MAPPER.valueToTree(new StatusBuilder()
                .withStatus("Failure")
                .withReason("Expired")
                .withCode(410)
                .withMessage("too old resource version: " + expired.requested() + " (" + expired.oldest() + ")")
                .build());
    }

    private static void reply(HttpServerRequest request, MockResponse response) {
        request.response()
                .setStatusCode(response.code())
                .putHeader("Content-Type", Responses.JSON)
                .end(response.getBody().readUtf8());
    }
}
