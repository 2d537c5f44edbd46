package dev.cartograph.chart;

import com.fasterxml.jackson.databind.JsonNode;

/** Lookups in a rendered pod spec: a container's environment variable, the volume behind a mount. */
final class Pods {
    private Pods() {}

    static JsonNode env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asText())) {
                return e;
            }
        }
        throw new AssertionError("no env " + name + " in " + container.path("env"));
    }

    static JsonNode volumeAt(JsonNode pod, JsonNode container, String mountPath) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (mountPath.equals(m.path("mountPath").asText())) {
                return volume(pod, m.path("name").asText());
            }
        }
        throw new AssertionError("nothing mounted at " + mountPath + ": " + container.path("volumeMounts"));
    }

    static JsonNode volume(JsonNode pod, String name) {
        for (JsonNode v : pod.path("volumes")) {
            if (name.equals(v.path("name").asText())) {
                return v;
            }
        }
        return null;
    }
}
