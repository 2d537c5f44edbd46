package dev.cartograph.mock.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.mock.watch.Change;
import dev.cartograph.mock.watch.ChangeLog;
import dev.cartograph.mock.watch.Selection;
import dev.cartograph.mock.watch.WatchEvent;
import io.vertx.core.Context;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One watch being served: {@code WatchEvent}s sent to a {@link WatchSink} (a chunked HTTP response, one JSON object
 * per line, as client-go reads them; or a WebSocket, one message per event, as the fabric8 client reads them). Events at or below the stream's starting resourceVersion are skipped
 * (they are already in what the client listed, or in the initial ADDED events). A client that
 * stops reading is cut off once {@link #MAX_BUFFERED_BYTES} are waiting for it (it watches again).
 *
 * <p>Confined to one Vert.x context (the connection's event loop): every method runs there; other
 * threads hand changes over with {@link #listener()}.
 */
final class WatchStream {
    /** How much may wait unsent for one client before the watch ends. */
    static final int MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Context context;
    private final WatchSink sink;
    private final String path;
    private final Selection selection;
    private final Function<JsonNode, JsonNode> render;
    private Runnable onEnd = () -> {};
    private long startAfter;
    /** Volatile: {@link HttpWatches#closeAll()} reads it from another thread. */
    private volatile ChangeLog.Subscription subscription;

    private long timer = -1;
    private boolean ended;

    /**
     * @param path   the watched path, without query (what {@link HttpWatches#expire} selects by)
     * @param render what each event object is sent as (a one-row Table, or the object itself)
     */
    WatchStream(
            Context context, WatchSink sink, String path, Selection selection, Function<JsonNode, JsonNode> render) {
        this.context = context;
        this.sink = sink;
        this.path = path;
        this.selection = selection;
        this.render = render;
        sink.onGone(this::end);
    }

    String path() {
        return path;
    }

    Selection selection() {
        return selection;
    }

    /** Runs {@code action} once when the stream ends, for whatever reason. */
    void onEnd(Runnable action) {
        this.onEnd = action;
    }

    /** The subscription feeding this stream, once {@link #open} was called. */
    Optional<ChangeLog.Subscription> listening() {
        return Optional.ofNullable(subscription);
    }

    /** Hands a change from any thread to this stream's context, unless it cannot concern this watch. */
    Consumer<Change> listener() {
        return change -> {
            if (selection.mayConcern(change)) {
                context.runOnContext(ignored -> deliver(change));
            }
        };
    }

    /** Opens the stream now (HTTP: sends the head), so the client sees the watch open before any event. */
    void open(ChangeLog.Subscription listening, long startAfterResourceVersion) {
        this.subscription = listening;
        this.startAfter = startAfterResourceVersion;
        if (!ended) {
            sink.open();
        }
    }

    /** Ends the stream after {@code seconds} (the request's {@code timeoutSeconds}). */
    void endAfter(long seconds) {
        timer = context.owner().setTimer(Math.max(1, seconds) * 1000, ignored -> end());
    }

    /** Sends an event the stream makes itself (initial ADDED, ERROR), bypassing the resourceVersion filter. */
    void send(WatchEvent event) {
        if (ended) {
            return;
        }
        ObjectNode frame = MAPPER.createObjectNode().put("type", event.type().name());
        frame.set("object", event.type() == WatchEvent.Type.ERROR ? event.object() : render.apply(event.object()));
        try {
            sink.send(MAPPER.writeValueAsBytes(frame));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a watch event (a mock bug; retry will not help)", e);
        }
    }

    /** Ends the stream from any thread, on its context. */
    void endSoon() {
        context.runOnContext(ignored -> end());
    }

    /** Ends the stream: stops listening and completes the response; idempotent. */
    void end() {
        if (ended) {
            return;
        }
        ended = true;
        if (subscription != null) {
            subscription.close();
        }
        if (timer >= 0) {
            context.owner().cancelTimer(timer);
        }
        sink.end();
        onEnd.run();
    }

    private void deliver(Change change) {
        if (ended || change.resourceVersion() <= startAfter) {
            return;
        }
        selection.eventFor(change).ifPresent(this::send);
        if (sink.full()) {
            end();
        }
    }
}
