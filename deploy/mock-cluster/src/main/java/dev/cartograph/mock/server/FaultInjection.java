package dev.cartograph.mock.server;

import dev.cartograph.mock.fault.Fault;
import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.requestlog.LoggedRequest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;

/**
 * Applies the fault of a rule that fired on a request, on the request's event loop: a throttle or an error is answered
 * here; a reset closes the connection (HTTP/2: resets the stream); a delay holds the request on a timer (the event loop
 * goes on) and then serves it; a stale list marks the request for {@link ResourceReads} and serves it. Stateless.
 */
final class FaultInjection {
    /**
     * Set on a request a stale-list rule fired on: how many changes behind to serve the list. The server removes it
     * from what clients send.
     */
    static final String STALE_CHANGES_HEADER = "X-Cartograph-Mock-Stale-Changes";

    private FaultInjection() {}

    /** Answers {@code request} as {@code rule}'s fault does; {@code serve} serves it as usual (after a delay). */
    static void apply(FaultRule rule, HttpServerRequest request, Exchange exchange, Vertx vertx, Runnable serve) {
        exchange.faulted(rule);
        Fault fault = rule.fault();
        if (fault instanceof Fault.Throttle throttle) {
            answer(request, throttle.answer());
        } else if (fault instanceof Fault.ServerError error) {
            answer(request, error.answer());
        } else if (fault instanceof Fault.Reset) {
            exchange.answered(LoggedRequest.NO_ANSWER);
            if (request.version() == HttpVersion.HTTP_2) {
                request.response().reset();
            } else {
                request.connection().close();
            }
        } else if (fault instanceof Fault.Delay delay) {
            request.pause();
            vertx.setTimer(Math.max(1, delay.latency().toMillis()), ignored -> {
                request.resume();
                serve.run();
            });
        } else if (fault instanceof Fault.StaleList stale) {
            request.headers().set(STALE_CHANGES_HEADER, String.valueOf(stale.changesBehind()));
            serve.run();
        } else {
            throw new IllegalStateException("a fault the server does not know: " + fault);
        }
    }

    private static void answer(HttpServerRequest request, Fault.Answer answer) {
        HttpServerResponse response = request.response().setStatusCode(answer.code());
        answer.headers().forEach(response::putHeader);
        response.end(answer.body());
    }
}
