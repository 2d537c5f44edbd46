package dev.cartograph.mock.server;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;

/** JSON responses and Kubernetes {@code Status} errors as the dispatchers send them. Thread-safe. */
final class Responses {
    static final String JSON = "application/json";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Responses() {}

    static MockResponse json(int code, String body) {
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", JSON)
                .setBody(body);
    }

    static MockResponse json(int code, Object body) {
        return json(code, SERIALIZATION.asJson(body));
    }

    /** A {@code Status} failure, e.g. 404 NotFound, with a message a user can act on. */
    static MockResponse status(int code, String reason, String message) {
        return json(
                code,
                new StatusBuilder()
                        .withStatus("Failure")
                        .withReason(reason)
                        .withCode(code)
                        .withMessage(message)
                        .build());
    }
}
