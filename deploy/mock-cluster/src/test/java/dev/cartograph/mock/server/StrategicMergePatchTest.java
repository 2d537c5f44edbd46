package dev.cartograph.mock.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StrategicMergePatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String DEPLOYMENT = """
            {"metadata": {"name": "web", "labels": {"v": "1", "keep": "yes"}},
             "spec": {"replicas": 1, "template": {"spec": {
               "containers": [{"name": "app", "image": "nginx:1", "ports": [{"containerPort": 80}]},
                              {"name": "sidecar", "image": "envoy:1"}],
               "tolerations": [{"key": "a", "operator": "Exists"}]}}}}
            """;

    @Test
    void mergesMapsAndRemovesNulls() throws Exception {
        JsonNode out =
                apply("{\"metadata\": {\"labels\": {\"v\": \"2\", \"keep\": null}}, \"spec\": {\"replicas\": 3}}");
        assertThat(out.at("/metadata/labels").toString()).isEqualTo("{\"v\":\"2\"}");
        assertThat(out.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(out.at("/metadata/name").asText()).isEqualTo("web");
    }

    @Test
    void mergesContainersByNameKeepingTheOthers() throws Exception {
        JsonNode out = apply("""
                {"spec": {"template": {"spec": {
                  "$setElementOrder/containers": [{"name": "app"}, {"name": "sidecar"}],
                  "containers": [{"name": "app", "image": "nginx:2"}]}}}}
                """);
        JsonNode containers = out.at("/spec/template/spec/containers");
        assertThat(containers).hasSize(2);
        assertThat(containers.get(0).path("image").asText()).isEqualTo("nginx:2");
        assertThat(containers.get(0).at("/ports/0/containerPort").asInt()).isEqualTo(80);
        assertThat(containers.get(1).path("image").asText()).isEqualTo("envoy:1");
        assertThat(out.toString()).doesNotContain("$setElementOrder");
    }

    @Test
    void deletesListItemsByKeyAndReplacesListsWithoutAKnownKey() throws Exception {
        JsonNode out = apply("""
                {"spec": {"template": {"spec": {
                  "containers": [{"name": "sidecar", "$patch": "delete"}, {"name": "new", "image": "busybox"}],
                  "tolerations": [{"key": "b", "operator": "Exists"}]}}}}
                """);
        assertThat(out.at("/spec/template/spec/containers").findValuesAsText("name"))
                .containsExactly("app", "new");
        assertThat(out.at("/spec/template/spec/tolerations").findValuesAsText("key"))
                .containsExactly("b");
    }

    private static JsonNode apply(String patch) throws Exception {
        return StrategicMergePatch.apply(JSON.readTree(DEPLOYMENT), JSON.readTree(patch));
    }
}
