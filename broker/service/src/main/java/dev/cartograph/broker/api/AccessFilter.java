package dev.cartograph.broker.api;

import dev.cartograph.broker.access.AccessControl;
import dev.cartograph.broker.access.Authentication;
import dev.cartograph.broker.access.BearerToken;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Unavailable;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request but health and the OpenAPI document needs a bearer token the identity source accepts:
 * none or a rejected one is 401, an identity source that cannot be asked is 503. The caller is left on
 * the request ({@link #caller}) for the controller's per-workload decisions. Thread-safe.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class AccessFilter implements Ordered {
    private static final Logger LOG = LoggerFactory.getLogger(AccessFilter.class);
    private static final String CALLER = "cartograph.caller";
    /** Probes and the API's description: no tenant data. */
    private static final Set<String> OPEN = Set.of(
            "/health", "/health/liveness", "/health/readiness", "/", "/ui/app.js", "/ui/app.css"); // the dashboard's
    // page, script and style hold no data: the page asks for a token and sends it with every API call

    private final AccessControl access;

    public AccessFilter(AccessControl access) {
        this.access = access;
    }

    /** The caller the filter authenticated; present on every request that reached a controller. */
    static Caller caller(HttpRequest<?> request) {
        return request.getAttribute(CALLER, Caller.class)
                .orElseThrow(() -> new IllegalStateException("no authenticated caller on " + request.getPath()));
    }

    /**
     * Whether {@code path} needs no token. Strict: a path with dot segments, escapes or empty segments is
     * never open, whatever the router would make of it.
     */
    static boolean open(String path) {
        if (path.contains("..") || path.contains("%") || path.contains("//") || path.contains("/./")) {
            return false;
        }
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return OPEN.contains(p) || p.startsWith("/openapi/");
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<?> authenticate(HttpRequest<?> request) {
        if (open(request.getPath())) {
            return null;
        }
        Optional<BearerToken> token =
                BearerToken.fromHeader(request.getHeaders().get(HttpHeaders.AUTHORIZATION));
        if (token.isEmpty()) {
            return Refusals.unauthorized("no bearer token: send Authorization: Bearer TOKEN (carto: set "
                    + "CARTOGRAPH_TOKEN or --token-file)");
        }
        Authentication a = access.authenticate(token.get());
        if (a instanceof Authentication.Authenticated ok) {
            request.setAttribute(CALLER, ok.caller());
            return null;
        }
        if (a instanceof Authentication.Rejected r) {
            LOG.info(
                    "{} {}: token sha256:{}… rejected: {}",
                    request.getMethodName(),
                    request.getPath(),
                    token.get().hash().substring(0, 12),
                    r.reason());
            return Refusals.unauthorized(r.reason());
        }
        Unavailable u = (Unavailable) a;
        LOG.warn("{} {}: {}", request.getMethodName(), request.getPath(), u.reason());
        return Refusals.unavailable(u.reason());
    }

    /** Runs before Micronaut's own filters, so nothing else sees an unauthenticated request. */
    @Override
    public int getOrder() {
        return ServerFilterPhase.SECURITY.order();
    }
}
