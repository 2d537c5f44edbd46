package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.WorkloadView;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The one generic runner for every definition's own testdata:
 * {@code src/test/resources/testdata/<definition-name>/<case>.yaml}, each holding an {@code object}
 * written from the kind's API and the {@code expect}ed view, counted by hand:
 *
 * <pre>
 * object: {...}
 * expect:
 *   phase: Running                 # required
 *   phases: [Running, Initializing] # optional, compared as a set
 *   pods: 4                        # required: total desired pods
 *   gpus: 8                        # required: total GPUs
 *   minMember: 4                   # optional: the workload's gang minimum
 *   components: {worker: 3, "replicatedjob/driver": 1}   # optional: pods by component or component/instance
 * </pre>
 *
 * Every catalog definition must have testdata, and together its cases must show every status its
 * definition maps.
 */
@Timeout(120)
class CatalogTestdataTest {

    @TestFactory
    Stream<DynamicNode> everyDefinitionsTestdataGivesTheExpectedView() throws IOException, URISyntaxException {
        Definitions catalog = Catalog.load().definitions();
        Interpreter interpreter = Interpreter.of(catalog);
        Path root = Path.of(CatalogTestdataTest.class.getResource("/testdata").toURI());
        return catalog.all().stream()
                .sorted(java.util.Comparator.comparing(WorkloadDefinition::name))
                .map(d -> {
                    Path dir = root.resolve(d.name());
                    List<Path> cases = cases(dir);
                    Set<Phase> shown = EnumSet.noneOf(Phase.class);
                    Stream<DynamicTest> tests = cases.stream()
                            .map(c -> DynamicTest.dynamicTest(
                                    c.getFileName().toString(), () -> shown.addAll(check(interpreter, d, c))));
                    DynamicTest coverage = DynamicTest.dynamicTest("cases show every mapped status", () -> {
                        assertThat(cases).as("testdata/%s has cases", d.name()).isNotEmpty();
                        for (Path c : cases) {
                            shown.addAll(check(interpreter, d, c));
                        }
                        assertThat(shown)
                                .as("statuses shown by testdata/%s", d.name())
                                .containsAll(d.status().mappings().keySet());
                    });
                    return DynamicContainer.dynamicContainer(d.name(), Stream.concat(tests, Stream.of(coverage)));
                });
    }

    private static List<Path> cases(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Checks one case; returns the phases it shows. */
    private static Set<Phase> check(Interpreter interpreter, WorkloadDefinition d, Path file) throws IOException {
        JsonNode doc;
        try (InputStream in = Files.newInputStream(file)) {
            doc = Documents.read(in).get(0);
        }
        JsonNode expect = doc.path("expect");
        Resolution r = interpreter.resolve(doc.path("object"));
        assertThat(r).as(file.toString()).isInstanceOf(Resolution.Resolved.class);
        assertThat(r.problems().stream().filter(Problem::isError))
                .as("problems")
                .isEmpty();
        WorkloadView view = ((Resolution.Resolved) r).view();
        assertThat(view.definition()).isEqualTo(d.name());
        assertThat(view.phase().displayName())
                .as("phase")
                .isEqualTo(expect.path("phase").asText());
        if (expect.has("phases")) {
            Set<String> phases = new LinkedHashSet<>();
            expect.path("phases").forEach(p -> phases.add(p.asText()));
            assertThat(view.status().phases())
                    .extracting(Phase::displayName)
                    .as("phases")
                    .containsExactlyInAnyOrderElementsOf(phases);
        }
        assertThat(view.totals().pods())
                .as("pods")
                .isEqualTo(expect.path("pods").asLong(-1));
        assertThat(view.totals().gpus())
                .as("gpus")
                .isEqualTo(expect.path("gpus").asLong(-1));
        if (expect.has("minMember")) {
            assertThat(view.gang().minMember())
                    .as("minMember")
                    .isEqualTo(expect.path("minMember").asLong());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        expect.path("components").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            assertThat(pods(view, e.getKey()))
                    .as("pods of %s", e.getKey())
                    .isEqualTo(e.getValue().asLong());
        }
        return EnumSet.copyOf(view.status().phases());
    }

    private static long pods(WorkloadView view, String key) {
        String component = key.contains("/") ? key.substring(0, key.indexOf('/')) : key;
        String instance = key.contains("/") ? key.substring(key.indexOf('/') + 1) : null;
        long sum = 0;
        for (ComponentView c :
                view.components().filter(c -> c.name().equals(component)).toList()) {
            for (InstanceView i : c.instances()) {
                if (i.hasPods() && (instance == null || i.id().equals(instance))) {
                    sum += i.replicas().desired();
                }
            }
        }
        return sum;
    }
}
