package dev.cartograph.mock.rbac;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request RBAC refused, and kube-apiserver's answer to it: HTTP 403 with a v1 {@code Status} whose message is
 * {@code RESOURCE[.GROUP] ["NAME"] is forbidden: User "U" cannot VERB resource "RES[/SUB]" in API group "G"
 * in the namespace "NS"} (or {@code at the cluster scope}; {@code forbidden: User "U" cannot VERB path "P"} for a
 * non-resource request), with {@code &}, {@code <} and {@code >} escaped as the server's sanitizer does — the
 * format of {@code responsewriters.Forbidden} and {@code apierrors.NewForbidden}. Immutable; thread-safe.
 */
public record Denial(String user, RequestAttributes request) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The {@code Status} message. */
    public String message() {
        String why = sanitize(reason());
        if (!request.resourceRequest()) {
            return "forbidden: " + why;
        }
        String qualified =
                request.apiGroup().isEmpty() ? request.resource() : request.resource() + "." + request.apiGroup();
        return request.name().isEmpty()
                ? qualified + " is forbidden: " + why
                : qualified + " " + quote(request.name()) + " is forbidden: " + why;
    }

    /** The response body: a v1 {@code Status}, code 403, reason {@code Forbidden}. */
    public String statusJson() {
        Map<String, Object> details = new LinkedHashMap<>();
        if (request.resourceRequest()) {
            if (!request.name().isEmpty()) {
                details.put("name", request.name());
            }
            if (!request.apiGroup().isEmpty()) {
                details.put("group", request.apiGroup());
            }
            details.put("kind", request.resource());
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.put("metadata", Map.of());
        status.put("status", "Failure");
        status.put("message", message());
        status.put("reason", "Forbidden");
        status.put("details", details);
        status.put("code", 403);
        try {
            return JSON.writeValueAsString(status);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a Status map always serializes", e);
        }
    }

    private String reason() {
        if (!request.resourceRequest()) {
            return "User " + quote(user) + " cannot " + request.verb() + " path " + quote(request.path());
        }
        String scope = request.namespace().isEmpty()
                ? "at the cluster scope"
                : "in the namespace " + quote(request.namespace());
        return "User " + quote(user) + " cannot " + request.verb() + " resource " + quote(request.combinedResource())
                + " in API group " + quote(request.apiGroup()) + " " + scope;
    }

    /** Go's {@code %q} for the plain names that appear here: quotes and backslashes escaped. */
    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String sanitize(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
