package dev.cartograph.mock.server;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;

/**
 * Where one watch's events go, as kube-apiserver sends them: over plain HTTP a chunked {@code 200} with one JSON
 * object per line (client-go, kubectl), over a WebSocket one text message per event (the fabric8 client). Confined to
 * the watch's Vert.x context, as {@link WatchStream}.
 */
interface WatchSink {
    /** Sends what opens the stream, if anything is left to send (HTTP: the head). */
    void open();

    /** Sends one event, a JSON object. */
    void send(byte[] event);

    /** Whether more than {@link WatchStream#MAX_BUFFERED_BYTES} wait unsent. */
    boolean full();

    /** Ends the stream cleanly (HTTP: the last chunk; WebSocket: close 1000), unless the peer is gone. */
    void end();

    /** Runs {@code action} when the peer leaves or the connection fails. */
    void onGone(Runnable action);

    /** A chunked HTTP response. */
    final class Http implements WatchSink {
        private final HttpServerResponse response;

        Http(HttpServerResponse response) {
            this.response = response;
            response.setStatusCode(200)
                    .setChunked(true)
                    .putHeader("Content-Type", Responses.JSON)
                    .setWriteQueueMaxSize(WatchStream.MAX_BUFFERED_BYTES);
        }

        @Override
        public void open() {
            response.writeHead();
        }

        @Override
        public void send(byte[] event) {
            response.write(Buffer.buffer(event).appendString("\n"));
        }

        @Override
        public boolean full() {
            return response.writeQueueFull();
        }

        @Override
        public void end() {
            if (!response.ended() && !response.closed()) {
                response.end();
            }
        }

        @Override
        public void onGone(Runnable action) {
            response.closeHandler(ignored -> action.run());
            response.exceptionHandler(ignored -> action.run());
        }
    }

    /** An upgraded WebSocket, as kube-apiserver serves a watch to a client that asks for one. */
    final class WebSocket implements WatchSink {
        private static final short NORMAL_CLOSURE = 1000;
        private final ServerWebSocket socket;

        WebSocket(ServerWebSocket socket) {
            this.socket = socket;
            socket.setWriteQueueMaxSize(WatchStream.MAX_BUFFERED_BYTES);
        }

        @Override
        public void open() {
            // the upgrade is the head
        }

        @Override
        public void send(byte[] event) {
            socket.writeTextMessage(new String(event, java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public boolean full() {
            return socket.writeQueueFull();
        }

        @Override
        public void end() {
            if (!socket.isClosed()) {
                socket.close(NORMAL_CLOSURE);
            }
        }

        @Override
        public void onGone(Runnable action) {
            socket.closeHandler(ignored -> action.run());
            socket.exceptionHandler(ignored -> action.run());
        }
    }
}
