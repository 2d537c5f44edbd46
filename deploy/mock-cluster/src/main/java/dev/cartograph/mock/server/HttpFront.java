package dev.cartograph.mock.server;

import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.fault.Faults;
import dev.cartograph.mock.rbac.Denial;
import dev.cartograph.mock.rbac.RbacGate;
import dev.cartograph.mock.rbac.RequestAttributes;
import dev.cartograph.mock.requestlog.RequestLog;
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
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.time.Clock;
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
 * responses are whole bodies, so it cannot stream a watch): a Vert.x server that serves watches
 * itself ({@link HttpWatches}, over HTTP and WebSocket) and hands every other request, other WebSocket upgrades
 * included, to the dispatcher through fabric8's own request handler, as {@code MockWebServer} does. An exception
 * escaping the dispatcher becomes a Status (400 for a body it cannot read, else 500) instead of a
 * request that never gets an answer. In order, a request meets: the {@link Faults} (a rule that fires answers, delays
 * or resets it, as kube-apiserver's priority and fairness filter runs before authorization), RBAC ({@link RbacGate}:
 * a request its bearer token's user may not make is answered 403), then the watches or the dispatcher. Every request
 * answered is recorded in the {@link RequestLog} ({@link Exchange}). Thread-safe.
 */
final class HttpFront implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);
    /** What fabric8's MockWebServer offers for exec/attach-style WebSockets. */
    private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");

    private static final long START_STOP_SECONDS = 30;

    /** What serves requests behind the front, and what it records them in. */
    record Backends(
            Dispatcher dispatcher,
            HttpWatches watches,
            RbacGate rbac,
            Faults faults,
            RequestLog log,
            boolean logAtInfo,
            Clock clock) {}

    private final Vertx vertx;
    private final Backends backends;
    private final AtomicBoolean closed = new AtomicBoolean();
    private HttpServer server;

    private HttpFront(Vertx vertx, Backends backends) {
        this.vertx = vertx;
        this.backends = backends;
    }

    /** Listens on {@code host:port} (0 = a free port); fails when the port is taken. */
    static HttpFront start(InetAddress host, int port, Backends backends) {
        Vertx vertx = Vertx.vertx();
        HttpFront front = new HttpFront(vertx, backends);
        front.server = vertx.createHttpServer(new HttpServerOptions()
                .setHost(host.getHostAddress())
                .setPort(port)
                .setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
                .setHandle100ContinueAutomatically(true));
        front.server.requestHandler(front::handle);
        try {
            await(front.server.listen());
        } catch (RuntimeException e) {
            await(vertx.close());
            throw new IllegalStateException(
                    "the mock API server cannot listen on " + host.getHostAddress() + ":" + port
                            + " (is the port taken?)",
                    e);
        }
        return front;
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
        backends.watches().closeAll(Duration.ofSeconds(1));
        try {
            await(server.close());
        } finally {
            await(vertx.close());
        }
    }

    private void handle(HttpServerRequest request) {
        request.headers().remove(FaultInjection.STALE_CHANGES_HEADER); // only the server sets it
        String authorization = request.getHeader("Authorization");
        RequestAttributes attributes = RequestAttributes.of(request.method().name(), request.uri());
        Exchange exchange = new Exchange(
                backends.log(),
                backends.logAtInfo(),
                backends.clock().instant(),
                request.method().name(),
                request.uri(),
                attributes,
                backends.rbac().userOf(authorization));
        HttpServerResponse response = request.response();
        response.headersEndHandler(ignored -> exchange.answered(response.getStatusCode()));
        Optional<FaultRule> fault = backends.faults().fire(attributes);
        if (fault.isPresent()) {
            FaultInjection.apply(fault.get(), request, exchange, vertx, () -> authorized(request, exchange));
        } else {
            authorized(request, exchange);
        }
    }

    /** Serves {@code request} unless RBAC refuses it (answered 403 and a Status, as kube-apiserver does). */
    private void authorized(HttpServerRequest request, Exchange exchange) {
        Optional<Denial> denial = backends.rbac().check(exchange.attributes(), request.getHeader("Authorization"));
        if (denial.isPresent()) {
            request.response()
                    .setStatusCode(403)
                    .putHeader("Content-Type", Responses.JSON)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .end(denial.get().statusJson());
            return;
        }
        if (HttpWatches.isWatch(request) && serveWatch(request, exchange)) {
            return;
        }
        dispatching(exchange).handle(request);
    }

    private boolean serveWatch(HttpServerRequest request, Exchange exchange) {
        try {
            return backends.watches().serve(request, exchange);
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
            return true;
        }
    }

    /** fabric8's handler for one request: the dispatcher's answer, a WebSocket upgrade recorded as 101. */
    private HttpServerRequestHandler dispatching(Exchange exchange) {
        return new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                MockResponse response = dispatchSafely(backends.dispatcher(), request);
                if (response.getWebSocketListener() != null) {
                    exchange.answered(101);
                }
                return response;
            }
        };
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
