package dev.cartograph.broker.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.broker.access.Caller;
import dev.cartograph.broker.access.Verdict;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;

/** The REST API's answers when it will not answer: 401, 403 and 503, each a JSON error with a reason. */
final class Refusals {
    private Refusals() {}

    /** 401 with {@code WWW-Authenticate: Bearer}: no token, or one the identity source does not accept. */
    static HttpResponse<String> unauthorized(String reason) {
        return HttpResponse.<String>status(HttpStatus.UNAUTHORIZED)
                .header("WWW-Authenticate", "Bearer realm=\"cartograph-broker\"")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Views.error("unauthorized", reason).toString());
    }

    /** 403 naming the verb, resource and namespace the caller may not use. */
    static HttpResponse<String> forbidden(Caller caller, Verdict.Denied denied) {
        ObjectNode body = Views.error("forbidden", denied.message(caller));
        ((ObjectNode) body.path("error"))
                .put("verb", denied.question().verb())
                .put("group", denied.question().group())
                .put("resource", denied.question().resource())
                .put("namespace", denied.question().namespace());
        return HttpResponse.<String>status(HttpStatus.FORBIDDEN)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body.toString());
    }

    /** 503: who the caller is, or what it may do, cannot be known now; never taken as an allow. */
    static HttpResponse<String> unavailable(String reason) {
        return HttpResponse.<String>status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", "5")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Views.error("access_unavailable", reason).toString());
    }
}
