package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.util.Optional;

/**
 * Server-side apply ({@code PATCH} with {@code application/apply-patch+yaml}, what
 * {@code kubectl apply --server-side} sends), approximately: a missing object is created from the
 * applied configuration; an existing one gets the configuration merged in as {@link StrategicMergePatch}
 * merges (maps merge, containers and friends by name, other lists replaced) and is stored with a PUT.
 * No managed fields: {@code fieldManager} and {@code force} are ignored, no conflict is ever reported,
 * and a field removed from the configuration is not removed from the object. On {@code .../status}
 * only {@code status} is applied. The CRUD dispatcher alone answers 404 for a new object. Thread-safe:
 * each read and write goes through the CRUD dispatcher's lock; a concurrent change makes the write 409.
 */
final class ServerSideApply {
    static final String CONTENT_TYPE = "application/apply-patch";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    private final KubernetesCrudDispatcher delegate;

    ServerSideApply(KubernetesCrudDispatcher delegate) {
        this.delegate = delegate;
    }

    /** The response when {@code request} is a server-side apply, else empty. */
    Optional<MockResponse> handle(RecordedRequest request, String method, String path) {
        String contentType = String.valueOf(request.getHeader("Content-Type"));
        if (!"PATCH".equals(method) || !contentType.startsWith(CONTENT_TYPE)) {
            return Optional.empty();
        }
        if (!contentType.startsWith(CONTENT_TYPE + "+yaml")) {
            return Optional.of(Responses.status(
                    415,
                    "UnsupportedMediaType",
                    "the local hub (a mock API server) takes " + "server-side apply only as " + CONTENT_TYPE
                            + "+yaml, not " + contentType));
        }
        boolean status = path.endsWith("/status");
        String objectPath = status ? path.substring(0, path.length() - "/status".length()) : path;
        Optional<ResourcePath> resource =
                ResourcePath.parse(objectPath).filter(r -> r.name().isPresent());
        if (resource.isEmpty()) {
            return Optional.of(Responses.status(404, "NotFound", "no object to apply to at " + path));
        }
        Optional<ObjectNode> applied = parse(request);
        if (applied.isEmpty()) {
            return Optional.of(
                    Responses.status(400, "BadRequest", "the applied configuration is not a YAML or JSON object"));
        }
        MockResponse current = delegate.handleGet(objectPath);
        if (current.code() == 404 && !status) {
            return Optional.of(create(request, resource.get(), objectPath, applied.get()));
        }
        if (current.code() != 200) {
            return Optional.of(
                    current.code() == 404
                            ? Responses.status(
                                    404,
                                    "NotFound",
                                    resource.get().plural() + " \""
                                            + resource.get().name().get() + "\" not found")
                            : current);
        }
        return Optional.of(update(request, path, current, status ? statusOnly(applied.get()) : applied.get()));
    }

    private static Optional<ObjectNode> parse(RecordedRequest request) {
        try {
            JsonNode parsed = YAML.readTree(request.getBody().getBytes());
            return parsed != null && parsed.isObject() ? Optional.of((ObjectNode) parsed) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private MockResponse create(RecordedRequest request, ResourcePath resource, String objectPath, ObjectNode applied) {
        ObjectNode metadata = applied.path("metadata").isObject()
                ? (ObjectNode) applied.get("metadata")
                : applied.putObject("metadata");
        String name = resource.name().orElseThrow();
        if (metadata.hasNonNull("name") && !name.equals(metadata.get("name").asText())) {
            return Responses.status(
                    400,
                    "BadRequest",
                    "the name of the object (" + metadata.get("name").asText()
                            + ") does not match the name on the URL (" + name + ")");
        }
        metadata.put("name", name);
        String collection = objectPath.substring(0, objectPath.lastIndexOf('/'));
        return delegate.handleCreate(new RecordedRequest(
                request.getHttpVersion(),
                HttpMethod.POST,
                collection,
                request.getHeaders()
                        .newBuilder()
                        .set("Content-Type", Responses.JSON)
                        .build(),
                json(applied)));
    }

    private MockResponse update(RecordedRequest request, String path, MockResponse current, JsonNode applied) {
        try {
            JsonNode merged =
                    StrategicMergePatch.apply(JSON.readTree(current.getBody().getBytes()), applied);
            return delegate.handleUpdate(new RecordedRequest(
                    request.getHttpVersion(),
                    HttpMethod.PUT,
                    path,
                    request.getHeaders()
                            .newBuilder()
                            .set("Content-Type", Responses.JSON)
                            .build(),
                    json(merged)));
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the CRUD store returned unreadable JSON for " + path + " (a mock bug; retry will not help)", e);
        }
    }

    private static ObjectNode statusOnly(ObjectNode applied) {
        ObjectNode status = JSON.createObjectNode();
        if (applied.has("status")) {
            status.set("status", applied.get("status"));
        }
        return status;
    }

    private static Buffer json(JsonNode node) {
        try {
            return new Buffer(JSON.writeValueAsBytes(node));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON (a mock bug; retry will not help)", e);
        }
    }
}
