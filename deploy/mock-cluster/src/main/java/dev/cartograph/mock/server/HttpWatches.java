package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.mock.fault.WatchControl;
import dev.cartograph.mock.selector.FieldSelector;
import dev.cartograph.mock.table.IncludeObject;
import dev.cartograph.mock.table.Tables;
import dev.cartograph.mock.watch.ChangeLog;
import dev.cartograph.mock.watch.Selection;
import dev.cartograph.mock.watch.WatchEvent;
import io.fabric8.mockwebserver.http.MockResponse;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
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
import java.util.function.Predicate;

/**
 * Watches, as kube-apiserver serves them from its watch cache: over plain HTTP as kubectl and client-go make them
 * ({@code GET COLLECTION?watch=true}, a chunked stream of WatchEvents, with one-row Tables as objects when the
 * {@code Accept} header asks for {@code as=Table}), and over WebSocket as the fabric8 client makes them (one event per
 * message), for every resource type discovery serves (a WebSocket watch of another type is left to the CRUD
 * dispatcher, which streams the store's changes without resourceVersion semantics). Label selectors match as in the
 * store's lists, field selectors on any field as in {@link ResourceReads}. Semantics of {@code resourceVersion}: absent
 * or {@code 0}, first an ADDED event per object that exists now; a number, the changes after it (from the
 * {@link ChangeLog}; one ERROR event with {@code 410 Expired} when they are no longer retained or were compacted).
 * {@code timeoutSeconds} ends the stream, and {@link #expire} ends streams as that timeout does. Thread-safe: each
 * stream lives on its connection's event loop.
 */
final class HttpWatches implements WatchControl {
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

    /** Whether {@code request} is a watch, over plain HTTP or a WebSocket. */
    static boolean isWatch(HttpServerRequest request) {
        return request.method() == HttpMethod.GET && Query.of(request.uri()).isWatch();
    }

    /**
     * Answers the watch {@code request}, on its connection's event loop; false, leaving it unanswered, for a
     * WebSocket watch of a type discovery does not serve (the CRUD dispatcher's to serve, as before).
     */
    boolean serve(HttpServerRequest request, Exchange exchange) {
        boolean webSocket = "websocket".equalsIgnoreCase(String.valueOf(request.getHeader("Upgrade")));
        Query query = Query.of(request.uri());
        Optional<ResourcePath> resource = ResourcePath.parse(request.path());
        Optional<ServedTypes.ServedType> type = resource.flatMap(types::of);
        if (type.isEmpty() && webSocket) {
            return false;
        }
        if (type.isEmpty()) {
            reply(
                    request,
                    Responses.status(
                            404,
                            "NotFound",
                            "the server could not find the requested resource to watch at " + request.path()));
            return true;
        }
        FieldSelector.Parsed fields =
                FieldSelector.parse(query.get("fieldSelector").orElse(""));
        if (fields instanceof FieldSelector.Invalid invalid) {
            reply(request, Responses.status(400, "BadRequest", invalid.reason()));
            return true;
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
            return true;
        }
        Selection selection =
                new CollectionQuery(resource.get(), query).selection(store, ((FieldSelector.Valid) fields).selector());
        Function<JsonNode, JsonNode> render = renderer(request, query, type.get());
        Context context = Vertx.currentContext();
        if (!webSocket) {
            WatchSink sink = new WatchSink.Http(request.response());
            start(new WatchStream(context, sink, request.path(), selection, render), resource.get(), query, from);
            return true;
        }
        request.toWebSocket().onSuccess(socket -> {
            exchange.answered(101);
            WatchSink sink = new WatchSink.WebSocket(socket);
            start(new WatchStream(context, sink, request.path(), selection, render), resource.get(), query, from);
        });
        return true;
    }

    /** How many watches are open now, over HTTP and WebSocket (for tests and diagnostics). */
    int openCount() {
        return open.size();
    }

    @Override
    public int expire(Predicate<String> path) {
        List<WatchStream> expiring =
                open.stream().filter(stream -> path.test(stream.path())).toList();
        expiring.forEach(WatchStream::endSoon);
        return expiring.size();
    }

    @Override
    public long compactBefore(long resourceVersion) {
        return changes.compactBefore(resourceVersion);
    }

    @Override
    public long newestResourceVersion() {
        return changes.newestResourceVersion();
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

    private void start(WatchStream stream, ResourcePath resource, Query query, OptionalLong from) {
        open.add(stream);
        stream.onEnd(() -> open.remove(stream));
        query.get("timeoutSeconds")
                .filter(s -> s.matches("\\d{1,9}"))
                .map(Long::parseLong)
                .ifPresent(stream::endAfter);
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
            if (stream.selection().fields().matches(item)) {
                stream.send(new WatchEvent(WatchEvent.Type.ADDED, item));
            }
        }
    }

    private JsonNode snapshot(ResourcePath resource, Query query) {
        String path = new CollectionQuery(resource, query).storePath();
        MockResponse stored = store.handleGet(path);
        try {
            return MAPPER.readTree(stored.getBody().readUtf8());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "the CRUD store returned no readable list for " + path + " (a mock bug; retry will not help)", e);
        }
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

    /** What kube-apiserver's watch cache sends: {@code errors.NewResourceExpired("too old resource version: %d (%d)")}. */
    private static JsonNode expiredStatus(ChangeLog.Expired expired) {
        ObjectNode status = MAPPER.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        return status.put("status", "Failure")
                .put("message", "too old resource version: " + expired.requested() + " (" + expired.oldest() + ")")
                .put("reason", "Expired")
                .put("code", 410);
    }

    private static void reply(HttpServerRequest request, MockResponse response) {
        request.response()
                .setStatusCode(response.code())
                .putHeader("Content-Type", Responses.JSON)
                .end(response.getBody().readUtf8());
    }
}
