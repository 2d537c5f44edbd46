package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The chart carries copies of files whose source of truth lives elsewhere in the repository (Helm reads only
 * files inside the chart): the RBAC manifests of deploy/rbac and the CRDs. Each copy must equal its source byte
 * for byte, so the two never drift; and every value in values.yaml is documented in the chart's README.
 */
@Timeout(60)
class ChartSourcesTest {

    @ParameterizedTest
    @CsvSource({
        "files/rbac/broker.yaml, deploy/rbac/broker.yaml",
        "files/rbac/agent.yaml, deploy/rbac/agent.yaml",
        "files/rbac/agent-create-namespaces.yaml, deploy/rbac/agent-create-namespaces.yaml",
        "files/crds/clusters.cartograph.dev.yaml, broker/service/src/main/resources/crds/clusters.cartograph.dev.yaml",
        "files/crds/kartas.run.ai.yaml, deploy/local/src/main/resources/crds/kartas.run.ai.yaml",
    })
    void theChartsCopyEqualsItsSource(String copy, String source) throws IOException {
        assertThat(Files.readString(Chart.DIR.resolve(copy)))
                .as(
                        "deploy/chart/cartograph/%s differs from %s: cp %s deploy/chart/cartograph/%s",
                        copy, source, source, copy)
                .isEqualTo(Files.readString(Chart.REPO.resolve(source)));
    }

    @Test
    void theRenderedCrdsAreTheSourcesWithTheKeepPolicy() throws IOException {
        Rendered both = Chart.template(List.of("values-hub.yaml"), java.util.Map.of("crds.kartas", true));

        for (String[] crd : new String[][] {
            {"clusters.cartograph.dev", "broker/service/src/main/resources/crds/clusters.cartograph.dev.yaml"},
            {"kartas.run.ai", "deploy/local/src/main/resources/crds/kartas.run.ai.yaml"}
        }) {
            JsonNode rendered = both.get("CustomResourceDefinition", crd[0]);
            JsonNode source =
                    Chart.readAll(Files.readString(Chart.REPO.resolve(crd[1]))).get(0);
            assertThat(rendered.path("spec")).as(crd[0]).isEqualTo(source.path("spec"));
            assertThat(rendered.path("metadata")
                            .path("annotations")
                            .path("helm.sh/resource-policy")
                            .asText())
                    .isEqualTo("keep");
        }
    }

    @Test
    void everyValueIsInTheReadmesTable() throws IOException {
        String readme = Files.readString(Chart.DIR.resolve("README.md"));
        List<String> undocumented = new ArrayList<>();
        for (String key : leafKeys(
                "", Chart.YAML.readTree(Chart.DIR.resolve("values.yaml").toFile()))) {
            if (!readme.contains("| `" + key + "` |")) {
                undocumented.add(key);
            }
        }
        // the two required values have no default in values.yaml (so the schema can say they are missing)
        for (String key : List.of("agent.cluster", "agent.kafka.bootstrapServers", "broker.kafka.bootstrapServers")) {
            if (!readme.contains("| `" + key + "` |")) {
                undocumented.add(key);
            }
        }
        assertThat(undocumented)
                .as("values missing from deploy/chart/cartograph/README.md")
                .isEmpty();
    }

    /** Dotted paths of the values a user sets: scalars, lists and empty maps (a map with keys is descended). */
    private static List<String> leafKeys(String prefix, JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fields().forEachRemaining(e -> {
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            JsonNode v = e.getValue();
            if (v.isObject() && !v.isEmpty() && !key.endsWith("resources")) {
                out.addAll(leafKeys(key, v));
            } else {
                out.add(key);
            }
        });
        return out;
    }
}
