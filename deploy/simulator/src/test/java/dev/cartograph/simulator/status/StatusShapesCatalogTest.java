package dev.cartograph.simulator.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.view.Phase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Proves the status shapes against the catalog: put on a real example object of the kind (from the
 * catalog's test data), {@code running:} must read Running and {@code completed:} Completed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StatusShapesCatalogTest {
    private static final Path TESTDATA = Path.of("../../catalog/src/test/resources/testdata");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());
    private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");

    /** Every shipped status file, with the example object its shapes are tried on. */
    private static final Map<String, String> EXAMPLES = Map.of(
            "kubeflow-org-pytorchjob-v1", "kubeflow-org-pytorchjob-v1/created.yaml",
            "kubeflow-org-mpijob-v2beta1", "kubeflow-org-mpijob-v2beta1/created.yaml",
            "jobset-x-k8s-io-jobset-v1alpha2", "jobset-x-k8s-io-jobset-v1alpha2/spec-only.yaml",
            "ray-io-rayjob-v1", "ray-io-rayjob-v1/initializing.yaml",
            "leaderworkerset-x-k8s-io-leaderworkerset-v1",
                    "leaderworkerset-x-k8s-io-leaderworkerset-v1/progressing.yaml",
            "batch-job-v1", "batch-job-v1/starting.yaml",
            "apps-deployment-v1", "apps-deployment-v1/rolling-out.yaml");

    @ParameterizedTest(name = "{0}: running reads Running, completed reads {1}")
    @CsvSource({
        "kubeflow-org-pytorchjob-v1, Completed",
        "kubeflow-org-mpijob-v2beta1, Completed",
        "jobset-x-k8s-io-jobset-v1alpha2, Completed",
        "ray-io-rayjob-v1, Completed",
        "batch-job-v1, Completed",
        "leaderworkerset-x-k8s-io-leaderworkerset-v1, none (a service)",
        "apps-deployment-v1, none (a service)"
    })
    void statusShapesReadAsTheirPhaseOnARealObject(String definition, String completedPhase) throws IOException {
        StatusShapes shapes = StatusLibrary.builtIn().forDefinition(definition).orElseThrow();
        JsonNode example = YAML.readTree(
                        TESTDATA.resolve(EXAMPLES.get(definition)).toFile())
                .get("object");

        assertThat(phaseWith(example, shapes.runningAt(NOW))).isEqualTo(Phase.RUNNING);
        if (completedPhase.equals("Completed")) {
            assertThat(shapes.batch()).isTrue();
            assertThat(phaseWith(example, shapes.completedAt(NOW).orElseThrow()))
                    .isEqualTo(Phase.COMPLETED);
        } else {
            assertThat(shapes.batch()).isFalse();
        }
    }

    /** Expected phases from the recordings named in each status file (shared/recorded/.../resumed.yaml). */
    @ParameterizedTest(name = "{0}: suspended reads Suspended, resumed reads {1}")
    @CsvSource({
        "kubeflow-org-pytorchjob-v1, Initializing",
        "kubeflow-org-mpijob-v2beta1, Initializing",
        "jobset-x-k8s-io-jobset-v1alpha2, Undefined",
        "ray-io-rayjob-v1, Initializing",
        "batch-job-v1, Initializing"
    })
    void suspendedAndResumedShapesReadAsTheirPhaseOnARealObject(String definition, String resumedPhase)
            throws IOException {
        StatusShapes shapes = StatusLibrary.builtIn().forDefinition(definition).orElseThrow();
        JsonNode example = YAML.readTree(
                        TESTDATA.resolve(EXAMPLES.get(definition)).toFile())
                .get("object");

        assertThat(phaseWith(example, shapes.suspendedAt(NOW).orElseThrow())).isEqualTo(Phase.SUSPENDED);
        assertThat(phaseWith(example, shapes.resumedAt(NOW).orElseThrow()))
                .isEqualTo(Phase.parse(resumedPhase).orElseThrow());
    }

    @Test
    void servicesWithoutSuspendActionsHaveNoSuspendedShape() {
        assertThat(StatusLibrary.builtIn()
                        .forDefinition("apps-deployment-v1")
                        .orElseThrow()
                        .suspended())
                .isEmpty();
        assertThat(StatusLibrary.builtIn()
                        .forDefinition("leaderworkerset-x-k8s-io-leaderworkerset-v1")
                        .orElseThrow()
                        .suspended())
                .isEmpty();
    }

    @Test
    void everyShippedStatusFileHasAnExampleHere() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/simulator-status"))) {
            assertThat(files.map(f -> f.getFileName().toString().replace(".yaml", ""))
                            .collect(Collectors.toSet()))
                    .isEqualTo(EXAMPLES.keySet());
        }
    }

    @Test
    void fillsTheWriteTimeIntoTimestamps() {
        JsonNode running = StatusLibrary.builtIn()
                .forDefinition("kubeflow-org-pytorchjob-v1")
                .orElseThrow()
                .runningAt(NOW);
        assertThat(running.path("startTime").asText()).isEqualTo("2026-05-01T10:00:00Z");
        assertThat(running.path("conditions").get(1).path("lastTransitionTime").asText())
                .isEqualTo("2026-05-01T10:00:00Z");
    }

    @Test
    void aDefinitionWithoutAFileHasNoShapes() {
        assertThat(StatusLibrary.builtIn().forDefinition("kubeflow-org-tfjob-v1"))
                .isEmpty();
    }

    private static Phase phaseWith(JsonNode example, JsonNode status) {
        ObjectNode object = example.deepCopy();
        object.set("status", status);
        Resolution r = INTERPRETER.resolve(object);
        assertThat(r).isInstanceOf(Resolution.Resolved.class);
        return ((Resolution.Resolved) r).view().phase();
    }
}
