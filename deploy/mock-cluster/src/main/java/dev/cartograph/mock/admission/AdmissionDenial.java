package dev.cartograph.mock.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A validating webhook's refusal, as kube-apiserver returns it: HTTP 403 with the v1 {@code Status} the webhook sent
 * (as controller-runtime's {@code admission.Denied} sends it: code 403, reason {@code Forbidden}), its message
 * prefixed by the API server ({@code webhook/errors.ToStatusErr}): {@code admission webhook "NAME" denied the
 * request: MESSAGE}. The webhook sends no {@code details}, so there are none (unlike an RBAC or ResourceQuota
 * refusal, whose details name the resource). Immutable; thread-safe.
 */
public record AdmissionDenial(String webhook, String reason) {
    public static final int CODE = 403;
    private static final ObjectMapper JSON = new ObjectMapper();

    public AdmissionDenial {
        Objects.requireNonNull(webhook, "webhook");
        Objects.requireNonNull(reason, "reason");
    }

    /** The {@code Status} message. */
    public String message() {
        return "admission webhook \"" + webhook.replace("\\", "\\\\").replace("\"", "\\\"") + "\" denied the request: "
                + reason;
    }

    /** The response body: a v1 {@code Status}, status Failure, reason Forbidden, code 403. */
    public String statusJson() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.put("metadata", Map.of());
        status.put("status", "Failure");
        status.put("message", message());
        status.put("reason", "Forbidden");
        status.put("code", CODE);
        try {
            return JSON.writeValueAsString(status);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a Status map always serializes", e);
        }
    }
}
