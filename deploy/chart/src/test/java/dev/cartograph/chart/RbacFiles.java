package dev.cartograph.chart;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's RBAC manifests (deploy/rbac), the reference the chart's rules are held to. */
final class RbacFiles {
    static final Path DIR = Chart.REPO.resolve("deploy/rbac");

    private RbacFiles() {}

    /** The rules of the Role or ClusterRole {@code name} in deploy/rbac/{@code file}. */
    static JsonNode rules(String file, String kind, String name) {
        try {
            return Chart.readAll(Files.readString(DIR.resolve(file))).stream()
                    .filter(o -> kind.equals(o.path("kind").asText())
                            && name.equals(o.path("metadata").path("name").asText()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in deploy/rbac/" + file))
                    .path("rules");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
