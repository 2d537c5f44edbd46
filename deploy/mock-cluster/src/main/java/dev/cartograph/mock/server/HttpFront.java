package dev.cartograph.mock.server;

import dev.cartograph.mock.rbac.Denial;
import dev.cartograph.mock.rbac.RbacGate;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of a {@link MockApiServer}, in place of fabric8's {@code MockWebServer} (whose
 * responses are whole bodies, so it cannot stream a watch): a Vert.x server that serves HTTP watches
 * itself ({@link HttpWatches}) and hands every other request, WebSocket upgrades included, to the
 * dispatcher through fabric8's own request handler, as {@code MockWebServer} does. An exception
 * escaping the dispatcher becomes a Status (400 for a body it cannot read, else 500) instead of a
 * request that never gets an answer.
 * With RBAC on ({@link RbacGate}), a request its bearer token's user may not make is answered 403 first.
 * Requests are not recorded (fabric8's server kept every one). Thread-safe.
 */
final class HttpFront implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);
    /** What fabric8's MockWebServer offers for exec/attach-style WebSockets. */
    private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");

    private static final long START_STOP_SECONDS = 30;

    private final Vertx vertx;
    private final HttpServer server;
    private final HttpWatches watches;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpFront(Vertx vertx, HttpServer server, HttpWatches watches) {
        this.vertx = vertx;
        this.server = server;
        this.watches = watches;
    }

    /** Listens on {@code host:port} (0 = a free port); fails when the port is taken. */
    static HttpFront start(
            InetAddress host,
            int port,
            Dispatcher dispatcher,
            HttpWatches watches,
            RbacGate rbac,
            boolean logRequests) {
        Vertx vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer(new HttpServerOptions()
                .setHost(host.getHostAddress())
                .setPort(port)
                .setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
                .setHandle100ContinueAutomatically(true));
        HttpServerRequestHandler dispatching = new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                MockResponse response = dispatchSafely(dispatcher, request);
                if (logRequests) {
                    LOG.info("{} {} -> {}", request.getMethod(), request.getPath(), response.code());
                }
                return response;
            }
        };
        server.requestHandler(request -> {
            if (!denied(request, rbac, logRequests)) {
                route(request, watches, dispatching, logRequests);
            }
        });
        try {
            await(server.listen());
        } catch (RuntimeException e) {
            await(vertx.close());
            throw new IllegalStateException(
                    "the mock API server cannot listen on " + host.getHostAddress() + ":" + port
                            + " (is the port taken?)",
                    e);
        }
        return new HttpFront(vertx, server, watches);
    }

    int port() {
        return server.actualPort();
    }

    /** Ends every watch (waiting up to a second for them), stops listening and stops the event loops (up to 30 s); idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        watches.closeAll(Duration.ofSeconds(1));
        try {
            await(server.close());
        } finally {
            await(vertx.close());
        }
    }

    /** Answers a request RBAC refuses as kube-apiserver does (403 and a Status), before it is served or upgraded. */
    private static boolean denied(HttpServerRequest request, RbacGate rbac, boolean logRequests) {
        Optional<Denial> denial =
                rbac.check(request.method().name(), request.uri(), request.getHeader("Authorization"));
        if (denial.isEmpty()) {
            return false;
        }
        if (logRequests) {
            LOG.info(
                    "{} {} -> 403 {}",
                    request.method().name(),
                    request.uri(),
                    denial.get().message());
        }
        request.response()
                .setStatusCode(403)
                .putHeader("Content-Type", Responses.JSON)
                .putHeader("X-Content-Type-Options", "nosniff")
                .end(denial.get().statusJson());
        return true;
    }

    private static void route(
            HttpServerRequest request, HttpWatches watches, HttpServerRequestHandler dispatching, boolean logRequests) {
        if (!HttpWatches.isHttpWatch(request)) {
            dispatching.handle(request);
            return;
        }
        if (logRequests) {
            LOG.info("GET {} -> watch", request.uri());
        }
        try {
            watches.serve(request);
        } catch (RuntimeException e) {
            LOG.error("the watch {} failed", request.uri(), e);
            if (!request.response().headWritten()) {
                MockResponse failed = internalError(request.method().name(), request.uri(), e);
                request.response()
                        .setStatusCode(500)
                        .putHeader("Content-Type", Responses.JSON)
                        .end(failed.getBody().readUtf8());
            } else {
                request.response().reset();
            }
        }
    }

    private static MockResponse dispatchSafely(Dispatcher dispatcher, RecordedRequest request) {
        try {
            MockResponse response = dispatcher.dispatch(request);
            return response != null
                    ? response
                    : Responses.status(
                            405,
                            "MethodNotAllowed",
                            "the mock API server does not serve " + request.getMethod() + " requests");
        } catch (IllegalArgumentException | KubernetesClientException e) {
            // what the CRUD dispatcher throws for a body it cannot read as a Kubernetes object
            LOG.debug("{} {}: unreadable body", request.getMethod(), request.getPath(), e);
            return Responses.status(
                    400,
                    "BadRequest",
                    "the mock API server cannot read the request body of " + request.getMethod() + " "
                            + request.getPath() + " as a Kubernetes object: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{} {} failed in the mock API server", request.getMethod(), request.getPath(), e);
            return internalError(request.getMethod(), request.getPath(), e);
        }
    }

    private static MockResponse internalError(String method, String path, RuntimeException e) {
        return Responses.status(
                500,
                "InternalError",
                "the mock API server failed on " + method + " " + path + ": " + e
                        + " (a bug or a missing feature of the mock, logged by the server; retrying will not help)");
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(START_STOP_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting or stopping the mock API server", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the mock API server did not start or stop: " + e.getMessage(), e);
        }
    }
}
