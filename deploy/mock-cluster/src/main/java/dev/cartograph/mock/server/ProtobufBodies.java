package dev.cartograph.mock.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cartograph.mock.protobuf.KubeProtobuf;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * Request bodies in Kubernetes protobuf, which kubectl sends when it builds a built-in object itself
 * ({@code kubectl create namespace|configmap|secret|deployment ...}, {@code kubectl run}) and which the
 * CRUD dispatcher cannot read (it used to fail inside and leave the request unanswered until kubectl
 * timed out). The kinds {@link KubeProtobuf} reads become the JSON request a client would have sent;
 * every other one is refused at once with 415 and what to do instead. Pure; thread-safe.
 */
final class ProtobufBodies {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ProtobufBodies() {}

    static boolean isProtobuf(RecordedRequest request) {
        return String.valueOf(request.getHeader("Content-Type")).startsWith(KubeProtobuf.CONTENT_TYPE)
                && request.getBody() != null
                && request.getBody().size() > 0;
    }

    /** {@code request} as JSON; or the 415 answer when its object is not one the mock reads. */
    static Converted toJson(RecordedRequest request) {
        KubeProtobuf.Decoded decoded = KubeProtobuf.decode(request.getBody().getBytes());
        if (decoded instanceof KubeProtobuf.Unsupported unsupported) {
            return new Refused(Responses.status(415, "UnsupportedMediaType", refusal(unsupported)));
        }
        try {
            byte[] json = MAPPER.writeValueAsBytes(((KubeProtobuf.Json) decoded).object());
            return new Json(new RecordedRequest(
                    request.getHttpVersion(),
                    request.method(),
                    request.getPath(),
                    request.getHeaders()
                            .newBuilder()
                            .set("Content-Type", Responses.JSON)
                            .build(),
                    new Buffer(json)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write decoded JSON (a mock bug; retry will not help)", e);
        }
    }

    /** What {@link #toJson} made of a request. */
    sealed interface Converted permits Json, Refused {}

    record Json(RecordedRequest request) implements Converted {}

    record Refused(MockResponse response) implements Converted {}

    static String refusal(KubeProtobuf.Unsupported unsupported) {
        return "the local hub (a mock API server) cannot read this protobuf request body"
                + unsupported.type().map(t -> " (" + t + ")").orElse("") + ": " + unsupported.reason()
                + ". kubectl sends protobuf when it builds a built-in object itself (kubectl create deployment|service|job|..., "
                + "kubectl run, kubectl expose). Write the object as YAML and use kubectl apply -f FILE, for example "
                + "kubectl create deployment web --image=nginx --dry-run=client -o yaml | kubectl apply -f -";
    }
}
