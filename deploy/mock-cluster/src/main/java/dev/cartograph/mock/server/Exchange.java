package dev.cartograph.mock.server;

import dev.cartograph.mock.fault.FaultRule;
import dev.cartograph.mock.rbac.RequestAttributes;
import dev.cartograph.mock.requestlog.LoggedRequest;
import dev.cartograph.mock.requestlog.RequestLog;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request from its arrival to the head of its answer: who sent it, what it asks, which fault rule answered it.
 * Recorded once, when the answer starts (or the connection is reset instead), in the server's {@link RequestLog} and,
 * with request logging on, at INFO. Confined to the request's Vert.x context.
 */
final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);

    private final RequestLog log;
    private final boolean logAtInfo;
    private final Instant arrived;
    private final long arrivedNanos;
    private final String method;
    private final String uri;
    private final RequestAttributes attributes;
    private final Optional<String> user;
    private Optional<FaultRule> fault = Optional.empty();
    private boolean recorded;

    Exchange(
            RequestLog log,
            boolean logAtInfo,
            Instant arrived,
            String method,
            String uri,
            RequestAttributes attributes,
            Optional<String> user) {
        this.log = log;
        this.logAtInfo = logAtInfo;
        this.arrived = arrived;
        this.arrivedNanos = System.nanoTime();
        this.method = method;
        this.uri = uri;
        this.attributes = attributes;
        this.user = user;
    }

    RequestAttributes attributes() {
        return attributes;
    }

    /** The request is answered by {@code rule}'s fault (or served after it, for a delay or a stale list). */
    void faulted(FaultRule rule) {
        this.fault = Optional.of(rule);
    }

    /** The answer starts with {@code code} ({@link LoggedRequest#NO_ANSWER}: reset); only the first call counts. */
    void answered(int code) {
        if (recorded) {
            return;
        }
        recorded = true;
        LoggedRequest entry = new LoggedRequest(
                arrived,
                user,
                attributes.verb(),
                uri,
                code,
                fault.map(rule -> rule.fault().kind()),
                fault.map(FaultRule::name),
                Duration.ofNanos(System.nanoTime() - arrivedNanos));
        log.append(entry);
        if (logAtInfo) {
            LOG.info(
                    "{} {} -> {}{}",
                    method,
                    uri,
                    code,
                    fault.map(rule -> " (fault " + rule.fault().kind() + ", rule " + rule.name() + ")")
                            .orElse(""));
        }
    }
}
