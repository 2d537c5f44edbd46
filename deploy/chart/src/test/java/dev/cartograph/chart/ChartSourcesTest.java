package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart carries copies of files whose source of truth lives elsewhere in the repository (Helm reads only
 * files inside the chart): the RBAC manifests of deploy/rbac and the CRDs. Each copy must hold the same objects
 * as its source, so the two never drift; and every value in values.yaml is documented in the chart's README.
 */
@Timeout(60)
class ChartSourcesTest {

    /** Where each copied file's source lives; for a CRD, the first that exists (they are moving to interpreter/kube). */
    static List<String> sources(String copy) {
        return switch (copy) {
            case "files/rbac/broker.yaml" -> List.of("deploy/rbac/broker.yaml");
            case "files/rbac/agent.yaml" -> List.of("deploy/rbac/agent.yaml");
            case "files/rbac/agent-create-namespaces.yaml" -> List.of("deploy/rbac/agent-create-namespaces.yaml");
            case "files/crds/clusters.cartograph.dev.yaml" ->
                List.of(
                        "interpreter/kube/src/main/resources/crds/clusters.cartograph.dev.yaml",
                        "broker/service/src/main/resources/crds/clusters.cartograph.dev.yaml");
            case "files/crds/queues.cartograph.dev.yaml" ->
                List.of("interpreter/kube/src/main/resources/crds/queues.cartograph.dev.yaml");
            case "files/crds/kartas.run.ai.yaml" ->
                List.of(
                        "interpreter/kube/src/main/resources/crds/kartas.run.ai.yaml",
                        "deploy/local/src/main/resources/crds/kartas.run.ai.yaml");
            default -> throw new IllegalArgumentException(copy);
        };
    }

    static Path source(String copy) {
        return sources(copy).stream()
                .map(Chart.REPO::resolve)
                .filter(Files::exists)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no source of " + copy + " among " + sources(copy)));
    }

    /** Same objects, document for document (comments may differ: the templates read the objects, not the text). */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "files/rbac/broker.yaml",
                "files/rbac/agent.yaml",
                "files/rbac/agent-create-namespaces.yaml",
                "files/crds/clusters.cartograph.dev.yaml",
                "files/crds/queues.cartograph.dev.yaml",
                "files/crds/kartas.run.ai.yaml"
            })
    void theChartsCopyHoldsTheSameObjectsAsItsSource(String copy) throws IOException {
        Path source = source(copy);
        assertThat(Chart.readAll(Files.readString(Chart.DIR.resolve(copy))))
                .as(
                        "deploy/chart/cartograph/%s differs from its source: cp %s deploy/chart/cartograph/%s",
                        copy, Chart.REPO.relativize(source), copy)
                .isEqualTo(Chart.readAll(Files.readString(source)));
    }

    @Test
    void theRenderedCrdsAreTheSourcesWithTheKeepPolicy() throws IOException {
        Rendered both = Chart.template(List.of("values-hub.yaml"), Map.of("crds.kartas", true));

        for (String copy : List.of(
                "files/crds/clusters.cartograph.dev.yaml",
                "files/crds/queues.cartograph.dev.yaml",
                "files/crds/kartas.run.ai.yaml")) {
            JsonNode source = Chart.readAll(Files.readString(source(copy))).get(0);
            JsonNode rendered = both.get(
                    "CustomResourceDefinition",
                    source.path("metadata").path("name").asText());
            assertThat(rendered.path("spec")).as(copy).isEqualTo(source.path("spec"));
            assertThat(rendered.path("metadata")
                            .path("annotations")
                            .path("helm.sh/resource-policy")
                            .asText())
                    .isEqualTo("keep");
        }
    }

    @Test
    void everyValueIsInTheReadmesTableWithItsDefault() throws IOException {
        String readme = Files.readString(Chart.DIR.resolve("README.md"));
        JsonNode values = Chart.YAML.readTree(Chart.DIR.resolve("values.yaml").toFile());
        List<String> wrong = new ArrayList<>();
        for (String key : leafKeys("", values)) {
            Matcher row = Pattern.compile("(?m)^\\| `" + Pattern.quote(key) + "` \\| `([^|]*)` \\|")
                    .matcher(readme);
            if (!row.find()) {
                wrong.add(key + ": no row");
            } else if (!Chart.YAML.readTree(row.group(1)).equals(at(values, key))) {
                wrong.add(key + ": README says " + row.group(1) + ", values.yaml " + at(values, key));
            }
        }
        // the required values have no default in values.yaml (so the schema can say they are missing)
        for (String key : List.of("agent.cluster", "agent.kafka.bootstrapServers", "broker.kafka.bootstrapServers")) {
            if (!readme.contains("| `" + key + "` | (none) |")) {
                wrong.add(key + ": no row saying it has no default");
            }
        }
        assertThat(wrong).as("deploy/chart/cartograph/README.md's values table").isEmpty();
    }

    private static JsonNode at(JsonNode values, String dotted) {
        JsonNode node = values;
        for (String part : dotted.split("\\.")) {
            node = node.path(part);
        }
        return node;
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
