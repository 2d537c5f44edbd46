package dev.cartograph.mock.discovery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A skeleton OpenAPI v3 for the mock: {@code /openapi/v3} lists every served group-version and
 * each {@code /openapi/v3/apis/GROUP/VERSION} declares, per kind, only a PATCH operation with its
 * {@code x-kubernetes-group-version-kind} and the {@code fieldValidation} query parameter, and no
 * schemas. That is exactly what kubectl's field-validation check reads: it concludes the server
 * validates fields itself and skips client-side schema validation, so {@code kubectl create} and
 * {@code apply} work without {@code --validate=false}. The mock does not actually validate fields.
 * No strategic-merge content type is declared, so {@code kubectl apply} computes patches without
 * schemas (JSON merge patch for custom resources). Pure; thread-safe.
 */
public final class OpenApiV3 {
    private final Discovery discovery;

    public OpenApiV3(Discovery discovery) {
        this.discovery = discovery;
    }

    /** The document served at {@code /openapi/v3}: one entry per group-version. */
    public Map<String, Object> root() {
        Map<String, Object> paths = new LinkedHashMap<>();
        discovery
                .kinds()
                .forEach(
                        k -> paths.put(relativePath(k), Map.of("serverRelativeURL", "/openapi/v3/" + relativePath(k))));
        return Map.of("paths", paths);
    }

    /** The document for one group-version ({@code ""} is the core group), empty if none is served there. */
    public Optional<Map<String, Object>> groupVersion(String group, String version) {
        List<ApiKind> kinds = discovery.kinds().stream()
                .filter(k -> k.group().equals(group) && k.version().equals(version))
                .toList();
        if (kinds.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> paths = new LinkedHashMap<>();
        kinds.forEach(k -> paths.put(objectPath(k), Map.of("patch", patchOperation(k))));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("openapi", "3.0.0");
        doc.put("info", Map.of("title", "Cartograph mock API server", "version", "v1.32.0"));
        doc.put("paths", paths);
        doc.put("components", Map.of("schemas", Map.of()));
        return Optional.of(doc);
    }

    private static Map<String, Object> patchOperation(ApiKind k) {
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("operationId", "patch" + k.kind());
        op.put("x-kubernetes-group-version-kind", Map.of("group", k.group(), "version", k.version(), "kind", k.kind()));
        op.put(
                "parameters",
                List.of(Map.of("name", "fieldValidation", "in", "query", "schema", Map.of("type", "string"))));
        Map<String, Object> anyObject = Map.of("schema", Map.of("type", "object"));
        op.put(
                "requestBody",
                Map.of(
                        "content",
                        Map.of("application/json-patch+json", anyObject, "application/merge-patch+json", anyObject)));
        op.put("responses", Map.of("200", Map.of("description", "OK")));
        return op;
    }

    private static String relativePath(ApiKind k) {
        return k.group().isEmpty() ? "api/" + k.version() : "apis/" + k.group() + "/" + k.version();
    }

    private static String objectPath(ApiKind k) {
        return "/" + relativePath(k) + (k.namespaced() ? "/namespaces/{namespace}/" : "/") + k.plural() + "/{name}";
    }
}
