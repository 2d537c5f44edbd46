package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.dependency.Dependencies;
import dev.cartograph.interpreter.testing.SharedData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The dependencies Cartograph finds in a workload's pod templates, through the catalog's definitions (shape-blind),
 * against Karmada's own expected answers: every case of its {@code InterpretDependency} testdata for PyTorchJob,
 * RayJob and RayService in {@code ../shared/fixtures/karmada-testdata} (expected values written by Karmada's authors,
 * not by this code). And suspend as the catalog's definitions say it.
 */
@Timeout(60)
class CatalogDependencyConformanceTest {
    static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Each file with its number of cases, counted by hand (the comment block at its top lists them). */
    static final Map<String, Integer> FILES = Map.of(
            "kubeflow.org/v1/PyTorchJob/testdata/interpretdependency-test.yaml", 6,
            "ray.io/v1/RayJob/testdata/interpretdependency-test.yaml", 8,
            "ray.io/v1/RayService/testdata/interpretdependency-test.yaml", 4);

    @TestFactory
    Stream<DynamicTest> everyKarmadaDependencyCaseFindsExactlyTheDependenciesKarmadaExpects() throws IOException {
        Path fixtures = SharedData.fixtures().orElse(null);
        assumeTrue(fixtures != null, SharedData.absent("fixtures"));
        List<DynamicTest> tests = new ArrayList<>();
        for (String file : new TreeSet<>(FILES.keySet())) {
            List<JsonNode> cases;
            try (var parser = YAML.getFactory()
                    .createParser(
                            fixtures.resolve("karmada-testdata").resolve(file).toFile())) {
                cases = YAML.readValues(parser, JsonNode.class).readAll();
            }
            assertThat(cases).as(file).hasSize(FILES.get(file));
            for (JsonNode c : cases) {
                tests.add(DynamicTest.dynamicTest(file + ": " + c.path("name").asText(), () -> {
                    Set<String> expected = new TreeSet<>();
                    for (JsonNode d : c.path("output").path("dependencies")) {
                        assertThat(d.path("namespace").asText())
                                .isEqualTo(c.path("desiredObj")
                                        .path("metadata")
                                        .path("namespace")
                                        .asText());
                        expected.add(
                                d.path("kind").asText() + " " + d.path("name").asText());
                    }
                    assertThat(found(c.path("desiredObj"))).isEqualTo(expected);
                }));
            }
        }
        return tests.stream();
    }

    static Set<String> found(JsonNode object) {
        Resolution r = INTERPRETER.resolve(object);
        assertThat(r).as("%s", r.problems()).isInstanceOf(Resolution.Resolved.class);
        Set<String> out = new TreeSet<>();
        Dependencies.of(((Resolution.Resolved) r).view()).forEach(d -> out.add(d.toString()));
        return out;
    }

    @Test
    void aPyTorchJobIsSuspendedExactlyWhenItsRunPolicySaysSo() throws IOException {
        String job = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: p, namespace: ml}
                spec:
                  %s
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template: {spec: {containers: [{name: c, image: i}]}}
                """;
        assertThat(INTERPRETER.suspended(YAML.readTree(job.formatted("runPolicy: {suspend: true}"))))
                .contains(true);
        assertThat(INTERPRETER.suspended(YAML.readTree(job.formatted("runPolicy: {suspend: false}"))))
                .contains(false);
        assertThat(INTERPRETER.suspended(YAML.readTree(job.formatted("runPolicy: {}"))))
                .contains(false);
        assertThat(INTERPRETER.suspended(YAML.readTree(job.formatted("")))).contains(false);
    }

    @Test
    void aKindWhoseDefinitionCannotSuspendItSaysNothing() throws IOException {
        // batch-volcano-sh-job-v1alpha1.yaml: "there is no suspendDefinition"
        JsonNode volcano = YAML.readTree("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: v, namespace: ml}
                spec: {tasks: []}
                """);
        assertThat(INTERPRETER.suspended(volcano)).isEmpty();
        JsonNode job = YAML.readTree("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j, namespace: ml}
                spec: {suspend: true, template: {spec: {containers: [{name: c, image: i}]}}}
                """);
        assertThat(INTERPRETER.suspended(job)).contains(true);
    }
}
