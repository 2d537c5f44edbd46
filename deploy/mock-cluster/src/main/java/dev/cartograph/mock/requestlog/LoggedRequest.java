package dev.cartograph.mock.requestlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request a server answered. Immutable; thread-safe.
 *
 * @param time    when it arrived
 * @param user    the user its bearer token names, when the server knows the token (RBAC mode)
 * @param verb    the Kubernetes verb ({@code get list watch create update patch delete deletecollection}), or the
 *                lower-case method of a non-resource request
 * @param uri     the path with its query, as received
 * @param code    the status code answered ({@code 101} for a WebSocket upgrade, {@code 200} for a watch stream as it
 *                opens), {@link #NO_ANSWER} when the connection was reset without one
 * @param fault   the kind of fault answered ({@code throttle}, {@code delay}, ...), if one was
 * @param rule    the name of the rule that fired, if one did
 * @param latency from arrival to the answer's head (for a watch: until the stream opened)
 */
public record LoggedRequest(
        Instant time,
        Optional<String> user,
        String verb,
        String uri,
        int code,
        Optional<String> fault,
        Optional<String> rule,
        Duration latency) {
    /** The code of a request answered by closing the connection. */
    public static final int NO_ANSWER = 0;

    private static final ObjectMapper JSON = new ObjectMapper();

    public LoggedRequest {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(latency, "latency");
    }

    /**
     * One line of JSON, fields absent when empty:
     * {@code {"time":"2026-01-01T00:00:00.123Z","user":"...","verb":"update","uri":"/apis/...","code":429,
     * "fault":"throttle","rule":"lease-renewals","latencyMicros":180}}.
     */
    public String toJson() {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", time.toString());
        user.ifPresent(u -> line.put("user", u));
        line.put("verb", verb);
        line.put("uri", uri);
        line.put("code", code);
        fault.ifPresent(f -> line.put("fault", f));
        rule.ifPresent(r -> line.put("rule", r));
        line.put("latencyMicros", latency.toNanos() / 1_000);
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings and numbers always serializes", e);
        }
    }
}
