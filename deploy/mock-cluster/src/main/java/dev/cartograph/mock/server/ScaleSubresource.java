package dev.cartograph.mock.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.mock.discovery.Discovery;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code .../scale} subresource (an autoscaling/v1 Scale over {@code spec.replicas}) for kinds
 * discovery marks scalable, so {@code kubectl scale} works; the CRUD dispatcher would store the
 * Scale body over the object. Thread-safe: each write goes through the CRUD dispatcher's lock,
 * and a concurrent change makes the write fail with 409 as on a real server.
 */
final class ScaleSubresource {
    private static final Pattern SCALE =
            Pattern.compile("/apis/([^/]+)/([^/]+)(?:/namespaces/([^/]+))?/([^/]+)/([^/]+)/scale/?");

    private final KubernetesCrudDispatcher delegate;
    private final Supplier<Discovery> discovery;
    private final ObjectMapper mapper = new ObjectMapper();

    ScaleSubresource(KubernetesCrudDispatcher delegate, Supplier<Discovery> discovery) {
        this.delegate = delegate;
        this.discovery = discovery;
    }

    /** The response when {@code path} is a scale subresource of a scalable kind, else empty. */
    Optional<MockResponse> handle(RecordedRequest request, String method, String path) {
        Matcher m = SCALE.matcher(path);
        if (!m.matches() || !scalable(m.group(1), m.group(2), m.group(4))) {
            return Optional.empty();
        }
        String objectPath = path.substring(0, path.lastIndexOf("/scale"));
        MockResponse current = delegate.handleGet(objectPath);
        if (current.code() != 200) {
            return Optional.of(current);
        }
        try {
            ObjectNode object = (ObjectNode) mapper.readTree(current.getBody().getBytes());
            if ("GET".equals(method)) {
                return Optional.of(scale(200, object));
            }
            OptionalInt replicas = requestedReplicas(request, method);
            if (replicas.isEmpty()) {
                return Optional.of(Responses.status(400, "BadRequest", "a scale write needs spec.replicas"));
            }
            object.withObjectProperty("spec").put("replicas", replicas.getAsInt());
            MockResponse stored = delegate.handleUpdate(new RecordedRequest(
                    request.getHttpVersion(),
                    HttpMethod.PUT,
                    objectPath,
                    request.getHeaders(),
                    new Buffer(mapper.writeValueAsBytes(object))));
            return Optional.of(
                    stored.code() >= 300
                            ? stored
                            : scale(200, (ObjectNode)
                                    mapper.readTree(stored.getBody().getBytes())));
        } catch (IOException | ClassCastException e) {
            return Optional.of(Responses.status(400, "BadRequest", "cannot read the scale request: " + e.getMessage()));
        }
    }

    private boolean scalable(String group, String version, String plural) {
        return discovery.get().kinds().stream()
                .anyMatch(k -> k.group().equals(group)
                        && k.version().equals(version)
                        && k.plural().equals(plural)
                        && k.scaleSubresource());
    }

    private OptionalInt requestedReplicas(RecordedRequest request, String method) throws IOException {
        JsonNode body = mapper.readTree(request.getBody().getBytes());
        String type = String.valueOf(request.getHeader("Content-Type"));
        if ("PATCH".equals(method) && type.startsWith("application/json-patch+json") && body.isArray()) {
            for (JsonNode op : body) {
                if ("/spec/replicas".equals(op.path("path").asText())
                        && op.path("value").canConvertToInt()) {
                    return OptionalInt.of(op.path("value").asInt());
                }
            }
            return OptionalInt.empty();
        }
        JsonNode replicas = body.at("/spec/replicas");
        return replicas.canConvertToInt() ? OptionalInt.of(replicas.asInt()) : OptionalInt.empty();
    }

    private MockResponse scale(int code, ObjectNode object) throws IOException {
        JsonNode meta = object.path("metadata");
        ObjectNode scale =
                mapper.createObjectNode().put("apiVersion", "autoscaling/v1").put("kind", "Scale");
        ObjectNode scaleMeta = scale.putObject("metadata");
        for (String field : new String[] {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
            if (meta.has(field)) {
                scaleMeta.set(field, meta.get(field));
            }
        }
        scale.putObject("spec").put("replicas", object.at("/spec/replicas").asInt(1));
        ObjectNode status = scale.putObject("status")
                .put("replicas", object.at("/status/replicas").asInt(0));
        JsonNode matchLabels = object.at("/spec/selector/matchLabels");
        if (matchLabels.isObject()) {
            status.put(
                    "selector",
                    matchLabels.properties().stream()
                            .map(e -> e.getKey() + "=" + e.getValue().asText())
                            .collect(Collectors.joining(",")));
        }
        return Responses.json(code, mapper.writeValueAsString(scale));
    }
}
