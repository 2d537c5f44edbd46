package dev.cartograph.chart;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/** The objects one {@code helm template} rendered, in order. Immutable. */
record Rendered(List<JsonNode> objects) {

    static Rendered parse(String manifest) {
        return new Rendered(manifest == null ? List.of() : List.copyOf(Chart.readAll(manifest)));
    }

    List<JsonNode> ofKind(String kind) {
        return objects.stream()
                .filter(o -> kind.equals(o.path("kind").asText()))
                .toList();
    }

    Optional<JsonNode> find(String kind, String name) {
        return ofKind(kind).stream()
                .filter(o -> name.equals(o.path("metadata").path("name").asText()))
                .findFirst();
    }

    /** The one object of this kind and name; fails naming what was rendered instead. */
    JsonNode get(String kind, String name) {
        return find(kind, name)
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " rendered; rendered: " + names()));
    }

    List<String> names() {
        return objects.stream()
                .map(o -> o.path("kind").asText() + "/"
                        + o.path("metadata").path("namespace").asText("") + "/"
                        + o.path("metadata").path("name").asText())
                .toList();
    }

    /** The service's configuration file the chart mounts (ConfigMap data key broker.yml or agent.yml), parsed. */
    JsonNode config(String component) {
        return configFile(component).path("cartograph").path(component);
    }

    /** The whole configuration file of the component (micronaut.* and cartograph.*). */
    JsonNode configFile(String component) {
        String text = get("ConfigMap", Chart.RELEASE + "-" + component)
                .path("data")
                .path(component + ".yml")
                .asText();
        return Chart.readAll(text).get(0);
    }

    JsonNode container(String component) {
        return get("Deployment", Chart.RELEASE + "-" + component)
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
    }
}
