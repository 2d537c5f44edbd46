package dev.cartograph.mock.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OpenApiV3Test {
    private final OpenApiV3 openApi = new OpenApiV3(Discovery.of(BuiltInKinds.all(), List.of()));

    @Test
    void rootListsEveryGroupVersionWithItsRelativeUrl() {
        @SuppressWarnings("unchecked")
        Map<String, Object> paths = (Map<String, Object>) openApi.root().get("paths");
        assertThat(paths).containsKeys("api/v1", "apis/apps/v1", "apis/batch/v1");
        assertThat(paths.get("apis/apps/v1")).isEqualTo(Map.of("serverRelativeURL", "/openapi/v3/apis/apps/v1"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void groupVersionDeclaresPatchWithFieldValidationForEachKind() {
        Map<String, Object> doc = openApi.groupVersion("", "v1").orElseThrow();
        Map<String, Object> paths = (Map<String, Object>) doc.get("paths");
        Map<String, Object> namespaces = (Map<String, Object>) paths.get("/api/v1/namespaces/{name}");
        Map<String, Object> patch = (Map<String, Object>) namespaces.get("patch");
        assertThat(patch.get("x-kubernetes-group-version-kind"))
                .isEqualTo(Map.of("group", "", "version", "v1", "kind", "Namespace"));
        assertThat((List<Map<String, Object>>) patch.get("parameters"))
                .anySatisfy(p ->
                        assertThat(p).containsEntry("name", "fieldValidation").containsEntry("in", "query"));
        assertThat(paths).containsKey("/api/v1/namespaces/{namespace}/pods/{name}");
        assertThat(openApi.groupVersion("kubeflow.org", "v1")).isEmpty();
    }
}
