package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.testing.RecordedEvents;
import dev.cartograph.interpreter.testing.RecordedEvents.Recording;
import dev.cartograph.interpreter.testing.RecordedEvents.StateEvent;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.interpreter.view.WorkloadView;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
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
 * Every STATE event Workload Map recorded in real clusters ({@code ../shared/recorded}) must give
 * the recorded {@code phases} and {@code state} with Cartograph's own catalog definition of its
 * kind. The only exceptions are listed, with the reason, in {@code catalog/src/doc/recorded-conflicts.yaml} (also shown in docs/catalog.md): old
 * recordings that contradict newer recordings of the same status. One dynamic test per file.
 */
@Timeout(120)
class CatalogRecordedConformanceTest {

    @Test
    void catalogLoadsWithoutProblems() {
        Definitions.Loaded loaded = Catalog.load();
        assertThat(loaded.problems()).as("catalog problems").isEmpty();
        assertThat(loaded.definitions().size()).isGreaterThanOrEqualTo(5);
        assertThat(loaded.definitions().all())
                .allSatisfy(d -> assertThat(d.origin()).isEqualTo("catalog"));
    }

    @TestFactory
    Stream<DynamicTest> everyRecordedStateMatchesTheCatalog() throws IOException {
        Path recorded = SharedData.recorded().orElse(null);
        assumeTrue(recorded != null, SharedData.absent("recorded"));
        Definitions catalog = Catalog.load().definitions();
        Interpreter interpreter = Interpreter.of(catalog);
        Map<String, Set<Integer>> conflicts = conflicts();
        List<Recording> recordings = RecordedEvents.all(recorded);
        return recordings.stream()
                .map(rec -> DynamicTest.dynamicTest(rec.label(recorded), () -> {
                    assumeTrue(
                            catalog.named(rec.definition()).isPresent(),
                            "no catalog definition named " + rec.definition() + " yet");
                    List<String> mismatches = new ArrayList<>();
                    Set<Integer> failed = new TreeSet<>();
                    Set<Integer> allowed = conflicts.getOrDefault(rec.label(recorded), Set.of());
                    for (StateEvent e : rec.events()) {
                        Resolution r = interpreter.resolve(e.object());
                        assertThat(r).as("event %d", e.index()).isInstanceOf(Resolution.Resolved.class);
                        WorkloadView view = ((Resolution.Resolved) r).view();
                        assertThat(((Resolution.Resolved) r).problems().stream().filter(Problem::isError))
                                .isEmpty();
                        boolean ok = new LinkedHashSet<>(view.status().phases()).equals(e.phases())
                                && view.phase() == e.state();
                        if (!ok) {
                            failed.add(e.index());
                            if (!allowed.contains(e.index())) {
                                mismatches.add("event " + e.index() + ": recorded " + e.phases() + " -> " + e.state()
                                        + ", catalog gives " + view.status().phases() + " -> " + view.phase()
                                        + (view.status().errors().isEmpty()
                                                ? ""
                                                : " errors " + view.status().errors()));
                            }
                        }
                    }
                    assertThat(mismatches).as(rec.label(recorded)).isEmpty();
                    assertThat(failed)
                            .as("events listed in recorded-conflicts.yaml")
                            .containsExactlyInAnyOrderElementsOf(allowed);
                }));
    }

    static Map<String, Set<Integer>> conflicts() throws IOException {
        try (InputStream in = Files.newInputStream(Path.of("src/doc/recorded-conflicts.yaml"))) {
            return RecordedEvents.exceptions(in, "conflicts");
        }
    }
}
