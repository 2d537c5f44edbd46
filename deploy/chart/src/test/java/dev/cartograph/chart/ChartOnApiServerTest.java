package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every object the chart renders for a documented value set is accepted by an API server (a fabric8 mock in CRUD
 * mode, one per value set) and read back by kind, namespace and name with what was written: the rendered YAML is
 * well-formed Kubernetes, not only well-formed YAML. The mock checks no schemas; the typed fabric8 model does
 * (an unknown field or a wrong type in a built-in kind fails to deserialize).
 */
@Timeout(300)
class ChartOnApiServerTest {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(
                new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    static List<String> examples() {
        return Chart.examples();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyRenderedObjectIsCreatedAndReadBack(String example) {
        Rendered rendered = Chart.template(example);
        assertThat(rendered.objects()).isNotEmpty();

        for (JsonNode object : rendered.objects()) {
            HasMetadata created = create(object);
            assertThat(created.getMetadata().getName())
                    .isEqualTo(object.path("metadata").path("name").asText());
        }
        for (JsonNode object : rendered.objects()) {
            JsonNode read = readBack(object);
            String what = object.path("kind").asText() + " "
                    + object.path("metadata").path("name").asText();
            assertThat(read).as("%s read back", what).isNotNull();
            for (String field : List.of("spec", "rules", "roleRef", "subjects", "data")) {
                if (object.has(field)) {
                    assertThat(read.path(field)).as("%s.%s", what, field).isEqualTo(normalized(object.path(field)));
                }
            }
            assertThat(read.path("metadata").path("labels"))
                    .as(what)
                    .isEqualTo(object.path("metadata").path("labels"));
        }
    }

    private HasMetadata create(JsonNode object) {
        HasMetadata typed = Serialization.unmarshal(object.toString());
        if (typed instanceof GenericKubernetesResource generic) {
            return client.genericKubernetesResources(context(object))
                    .resource(generic)
                    .create();
        }
        return client.resource(typed).create();
    }

    private JsonNode readBack(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        String namespace = object.path("metadata").path("namespace").asText(null);
        HasMetadata typed = Serialization.unmarshal(object.toString());
        HasMetadata read = typed instanceof GenericKubernetesResource
                ? client.genericKubernetesResources(context(object))
                        .inNamespace(namespace)
                        .withName(name)
                        .get()
                : client.resource(typed).get();
        return read == null ? null : normalized(Chart.YAML.valueToTree(read));
    }

    /** Through JSON text and back, so a number is compared by value, not by the model's Java type (int or long). */
    private static JsonNode normalized(JsonNode node) {
        try {
            return JSON.readTree(node.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Kinds the fabric8 model does not know (the ServiceMonitor): group, version and plural from the object. */
    private static ResourceDefinitionContext context(JsonNode object) {
        String[] gv = object.path("apiVersion").asText().split("/");
        String kind = object.path("kind").asText();
        return new ResourceDefinitionContext.Builder()
                .withGroup(gv.length == 2 ? gv[0] : "")
                .withVersion(gv[gv.length - 1])
                .withKind(kind)
                .withPlural(kind.toLowerCase(java.util.Locale.ROOT) + "s")
                .withNamespaced(true)
                .build();
    }
}
