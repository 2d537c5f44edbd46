package dev.cartograph.mock.fault;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the server does to a request a {@link FaultRule} fires on, in place of (or before) serving it. Each kind answers
 * as kube-apiserver does when that fault is real; {@link #kind()} names it in the request log. Immutable; thread-safe.
 */
public sealed interface Fault permits Fault.Throttle, Fault.Delay, Fault.ServerError, Fault.Reset, Fault.StaleList {
    /** {@code throttle}, {@code delay}, {@code error}, {@code reset} or {@code stale-list}. */
    String kind();

    /**
     * {@code 429} as API Priority and Fairness rejects a request (the common throttle of a loaded API server): header
     * {@code Retry-After: SECONDS}, body {@code Too many requests, please try again later.} as {@code text/plain},
     * <b>no</b> {@code Status} (see {@link Throttle}).
     */
    static Throttle throttle(int retryAfterSeconds) {
        return new Throttle(retryAfterSeconds, Optional.empty());
    }

    /**
     * {@code 429} with a {@code Status}, reason {@code TooManyRequests}, {@code details.retryAfterSeconds} and the
     * {@code Retry-After} header, as the API server's storage answers (e.g. the watch cache while it initializes:
     * message {@code storage is (re)initializing}).
     */
    static Throttle throttleWithStatus(int retryAfterSeconds, String message) {
        return new Throttle(retryAfterSeconds, Optional.of(message));
    }

    /** Holds the request for {@code latency}, then serves it as usual. */
    static Delay delay(Duration latency) {
        return new Delay(latency);
    }

    /** {@code 500 InternalError}: message {@code Internal error occurred: MESSAGE}, the message again as a cause. */
    static ServerError internalError(String message) {
        return new ServerError(500, "InternalError", "Internal error occurred: " + message, 0, List.of(message));
    }

    /** {@code 503 ServiceUnavailable} with {@code message} (e.g. {@code etcdserver: leader changed}). */
    static ServerError serviceUnavailable(String message) {
        return new ServerError(503, "ServiceUnavailable", message, 0, List.of());
    }

    /**
     * {@code 504 Timeout}: message {@code Timeout: MESSAGE} (kube-apiserver's request timeout filter sends
     * {@code request did not complete within requested timeout - context deadline exceeded}); with
     * {@code retryAfterSeconds > 0}, {@code details.retryAfterSeconds} and {@code Retry-After} too.
     */
    static ServerError timeout(String message, int retryAfterSeconds) {
        return new ServerError(504, "Timeout", "Timeout: " + message, retryAfterSeconds, List.of());
    }

    /** Any code from 400 to 599 with a {@code Status} of {@code reason} and {@code message}, no details. */
    static ServerError error(int code, String reason, String message) {
        return new ServerError(code, reason, message, 0, List.of());
    }

    /** Closes the connection without an answer (HTTP/2: resets the stream). */
    static Reset reset() {
        return new Reset();
    }

    /**
     * A list served as it was {@code changesBehind} changes of the store ago (every kind counts, as a watch cache lags
     * in time), with that resourceVersion: what a lagging watch cache serves for {@code resourceVersion=0}.
     */
    static StaleList staleList(int changesBehind) {
        return new StaleList(changesBehind);
    }

    /** What the server sends instead of serving a request: a status code, headers and a body. */
    record Answer(int code, Map<String, String> headers, String body) {
        public Answer {
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
        }
    }

    /**
     * Throttled, as kube-apiserver answers. Without {@code statusMessage}: API Priority and Fairness
     * ({@code staging/src/k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go}, a rejected request:
     * {@code tooManyRequests(r, w, strconv.Itoa(int(h.droppedRequests.GetRetryAfter(...))))}, and
     * {@code maxinflight.go}: {@code w.Header().Set("Retry-After", retryAfter); http.Error(w, "Too many requests,
     * please try again later.", http.StatusTooManyRequests)}); Go's {@code http.Error} sends
     * {@code Content-Type: text/plain; charset=utf-8}, {@code X-Content-Type-Options: nosniff} and the text with a
     * newline. There is no {@code Status} body: client-go makes one itself (reason {@code TooManyRequests}), fabric8
     * reports code 429. With {@code statusMessage}: {@code apierrors.NewTooManyRequests(message, retryAfterSeconds)}
     * (as the watch cache's {@code cacher.go} answers while it is not ready), written by
     * {@code responsewriters.ErrorNegotiated}, which copies {@code details.retryAfterSeconds} to {@code Retry-After}.
     * The {@code X-Kubernetes-PF-*} headers naming a flow schema and priority level are not sent (the mock has none).
     *
     * @param retryAfterSeconds at least 1 (APF sends 1 to 32)
     */
    record Throttle(int retryAfterSeconds, Optional<String> statusMessage) implements Fault {
        static final String APF_TEXT = "Too many requests, please try again later.\n";

        public Throttle {
            if (retryAfterSeconds < 1) {
                throw new IllegalArgumentException("Retry-After must be at least 1 second, was " + retryAfterSeconds);
            }
            Objects.requireNonNull(statusMessage, "statusMessage");
        }

        @Override
        public String kind() {
            return "throttle";
        }

        /** The 429 answer. */
        public Answer answer() {
            String retryAfter = String.valueOf(retryAfterSeconds);
            if (statusMessage.isEmpty()) {
                return new Answer(
                        429,
                        Map.of(
                                "Retry-After",
                                retryAfter,
                                "Content-Type",
                                "text/plain; charset=utf-8",
                                "X-Content-Type-Options",
                                "nosniff"),
                        APF_TEXT);
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("retryAfterSeconds", retryAfterSeconds);
            return new Answer(
                    429,
                    Map.of("Retry-After", retryAfter, "Content-Type", "application/json"),
                    status(429, "TooManyRequests", statusMessage.get(), details));
        }
    }

    /**
     * The request is held for {@code latency} (on a timer: the server's event loop goes on), then served as usual:
     * a write is stored only then, a watch starts only then.
     */
    record Delay(Duration latency) implements Fault {
        public Delay {
            if (latency.isNegative() || latency.isZero()) {
                throw new IllegalArgumentException("a delay must be positive, was " + latency);
            }
        }

        @Override
        public String kind() {
            return "delay";
        }
    }

    /**
     * A failure with a kube-style {@code Status} body, as {@code apierrors.NewInternalError},
     * {@code NewServiceUnavailable} and {@code NewTimeoutError} build them ({@code k8s.io/apimachinery/pkg/api/errors});
     * {@code retryAfterSeconds > 0} adds {@code details.retryAfterSeconds} and the {@code Retry-After} header, as
     * {@code responsewriters.ErrorNegotiated} does. fabric8 clients retry 5xx with backoff (see the module README).
     *
     * @param causes {@code details.causes[].message}, none for no causes
     */
    record ServerError(int code, String reason, String message, int retryAfterSeconds, List<String> causes)
            implements Fault {
        public ServerError {
            if (code < 400 || code > 599) {
                throw new IllegalArgumentException("an error fault answers 400 to 599, was " + code);
            }
            if (reason.isBlank()) {
                throw new IllegalArgumentException("an error fault needs a Status reason such as InternalError");
            }
            Objects.requireNonNull(message, "message");
            if (retryAfterSeconds < 0) {
                throw new IllegalArgumentException("retryAfterSeconds must not be negative, was " + retryAfterSeconds);
            }
            causes = List.copyOf(causes);
        }

        @Override
        public String kind() {
            return "error";
        }

        /** The failure's answer. */
        public Answer answer() {
            Map<String, Object> details = new LinkedHashMap<>();
            if (!causes.isEmpty()) {
                details.put(
                        "causes", causes.stream().map(c -> Map.of("message", c)).toList());
            }
            if (retryAfterSeconds > 0) {
                details.put("retryAfterSeconds", retryAfterSeconds);
            }
            Map<String, String> headers = retryAfterSeconds > 0
                    ? Map.of("Content-Type", "application/json", "Retry-After", String.valueOf(retryAfterSeconds))
                    : Map.of("Content-Type", "application/json");
            return new Answer(code, headers, status(code, reason, message, details));
        }
    }

    /** The connection is closed without an answer, as a crashed API server or a cut load balancer leaves it. */
    record Reset() implements Fault {
        @Override
        public String kind() {
            return "reset";
        }
    }

    /**
     * A list (not a watch, not one object) served from the past: the current list with the newest
     * {@code changesBehind} changes of the store undone, and their predecessor's resourceVersion (or the oldest the
     * server retains, when it retains fewer). A watch from that resourceVersion then replays what the list missed. A
     * real API server serves such lists only for {@code resourceVersion=0} (what an informer's first list asks); the
     * mock serves every list the rule fires on, so scope the rule ({@link FaultRule#forNext}).
     */
    record StaleList(int changesBehind) implements Fault {
        public StaleList {
            if (changesBehind < 1) {
                throw new IllegalArgumentException("a stale list is at least 1 change behind, was " + changesBehind);
            }
        }

        @Override
        public String kind() {
            return "stale-list";
        }
    }

    private static String status(int code, String reason, String message, Map<String, Object> details) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.put("metadata", Map.of());
        status.put("status", "Failure");
        status.put("message", message);
        status.put("reason", reason);
        if (!details.isEmpty()) {
            status.put("details", details);
        }
        status.put("code", code);
        try {
            return new ObjectMapper().writeValueAsString(status);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a Status map always serializes", e);
        }
    }
}
