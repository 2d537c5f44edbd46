package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.podsecurity.Level;
import dev.cartograph.interpreter.podsecurity.PodSecurity;
import dev.cartograph.interpreter.podsecurity.Violation;
import dev.cartograph.interpreter.testing.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Pod security at the default level against what real users submit: every catalog example and testdata
 * object, and every real upstream object in {@code ../shared/fixtures}, passes {@code baseline}, except those
 * listed in {@link #EXPECTED} with the exact violations a person read off the file. Nothing is left out
 * silently: a fixture of a kind the catalog does not cover is skipped by name.
 */
@Timeout(120)
class CatalogPodSecurityTest {
    /**
     * Real fixtures that legitimately break baseline, with their violations ({@code field check}). None so
     * far: grepping the fixtures (outside karmada-testdata, which holds test files, not objects) for
     * hostNetwork, hostPID, hostIPC, privileged, hostPath, capabilities, hostPort, sysctls, seccompProfile,
     * procMount, seLinuxOptions, appArmorProfile, nodeName and windowsOptions finds only
     * deployment/aicr-hpa-gpu-workload.yaml, whose seccompProfile is RuntimeDefault (allowed).
     */
    static final Map<String, List<String>> EXPECTED = Map.of();

    static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());

    @TestFactory
    Stream<DynamicTest> everyCatalogExampleAndTestdataObjectPassesBaseline() throws IOException, URISyntaxException {
        Path resources = Path.of(
                        CatalogPodSecurityTest.class.getResource("/examples").toURI())
                .getParent();
        List<Path> files;
        try (Stream<Path> walk =
                Stream.concat(Files.walk(resources.resolve("examples")), Files.walk(resources.resolve("testdata")))) {
            files = walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(60); // 1 example and the testdata cases of 30 definitions
        return files.stream()
                .map(f -> DynamicTest.dynamicTest(resources.relativize(f).toString(), () -> {
                    JsonNode doc = read(f);
                    JsonNode object = doc.has("object") ? doc.get("object") : doc;
                    assertThat(violations(object)).as("%s", f).isEmpty();
                }));
    }

    @TestFactory
    Stream<DynamicTest> everyRealFixturePassesBaselineOrIsListedWithItsViolations() throws IOException {
        Path fixtures = SharedData.fixtures().orElse(null);
        assumeTrue(fixtures != null, SharedData.absent("fixtures"));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(fixtures)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !fixtures.relativize(p).startsWith("karmada-testdata"))
                    .sorted()
                    .toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(60); // INDEX.md: 66 objects in 15 kind folders
        return files.stream()
                .map(f -> DynamicTest.dynamicTest(fixtures.relativize(f).toString(), () -> {
                    JsonNode object = read(f);
                    Resolution r = INTERPRETER.resolve(object);
                    assumeTrue(!(r instanceof Resolution.NoDefinition), "catalog has no definition for this kind yet");
                    List<String> found = violations(object).stream()
                            .map(v -> v.field() + " " + v.check())
                            .toList();
                    assertThat(found)
                            .as("%s", fixtures.relativize(f))
                            .containsExactlyElementsOf(
                                    EXPECTED.getOrDefault(fixtures.relativize(f).toString(), List.of()));
                }));
    }

    @Test
    void theCheckerSeesTheFixturesPodTemplates() throws IOException {
        Path fixtures = SharedData.fixtures().orElse(null);
        assumeTrue(fixtures != null, SharedData.absent("fixtures"));
        // the real JobSet, made unsafe by hand: a check that saw no pod template would pass it
        JsonNode jobset = read(fixtures.resolve("jobset/paralleljobs.yaml"));
        JsonNode pod = jobset.at("/spec/replicatedJobs/1/template/spec/template/spec");
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod).put("hostNetwork", true);
        assertThat(violations(jobset))
                .extracting(Violation::field)
                .containsExactly("spec.replicatedJobs[1].template.spec.template.spec.hostNetwork");
    }

    private static List<Violation> violations(JsonNode object) {
        return PodSecurity.check(INTERPRETER.resolve(object), Level.BASELINE);
    }

    private static JsonNode read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Documents.read(in).get(0);
        }
    }
}
