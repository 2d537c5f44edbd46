package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.testing.RecordedEvents;
import dev.cartograph.interpreter.testing.RecordedEvents.Recording;
import dev.cartograph.interpreter.testing.RecordedEvents.StateEvent;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.WorkloadView;
import java.io.IOException;
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
 * Format compatibility: NVIDIA's own Workload Map definitions ({@code ../shared/recorded/_definitions},
 * test input only) load unchanged, and with them every recorded STATE event yields the recorded
 * {@code phases} and {@code state}. One dynamic test per recorded file.
 */
@Timeout(120)
class NvidiaDefinitionCompatibilityTest {

    private static Path definitionsDir() {
        Path recorded = SharedData.recorded().orElse(null);
        assumeTrue(recorded != null, SharedData.absent("recorded"));
        return recorded.resolve("_definitions");
    }

    @Test
    void everyNvidiaDefinitionLoadsUnchangedWithoutErrors() throws IOException {
        Path dir = definitionsDir();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")
                            && !p.getFileName().toString().contains("crd"))
                    .sorted()
                    .toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(18);
        for (Path file : files) {
            Definitions.Loaded loaded = Definitions.load(file);
            assertThat(loaded.problems().stream().filter(Problem::isError))
                    .as(file.toString())
                    .isEmpty();
            assertThat(loaded.definitions().size()).as(file.toString()).isEqualTo(1);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyRecordedStateMatchesWithNvidiaDefinitions() throws IOException {
        Path recorded = SharedData.recorded().orElse(null);
        assumeTrue(recorded != null, SharedData.absent("recorded"));
        Definitions.Loaded loaded = Definitions.load(recorded.resolve("_definitions"));
        Interpreter interpreter = Interpreter.of(loaded.definitions());
        List<Recording> recordings = RecordedEvents.all(recorded);
        Map<String, Set<Integer>> drift = drift();
        assertThat(recordings).hasSizeGreaterThanOrEqualTo(63);
        return recordings.stream()
                .map(rec -> DynamicTest.dynamicTest(rec.label(recorded), () -> {
                    assertThat(rec.events()).isNotEmpty();
                    List<String> mismatches = new ArrayList<>();
                    Set<Integer> expectedDrift = drift.getOrDefault(rec.label(recorded), Set.of());
                    Set<Integer> drifted = new TreeSet<>();
                    for (StateEvent e : rec.events()) {
                        Resolution r = interpreter.resolve(e.object());
                        assertThat(r)
                                .as("event %d of %s", e.index(), rec.file())
                                .isInstanceOf(Resolution.Resolved.class);
                        WorkloadView view = ((Resolution.Resolved) r).view();
                        assertThat(view.definition()).isEqualTo(rec.definition());
                        boolean matches = new LinkedHashSet<>(view.status().phases()).equals(e.phases())
                                && view.phase() == e.state();
                        if (!matches) {
                            drifted.add(e.index());
                        }
                        if (!matches && !expectedDrift.contains(e.index())) {
                            mismatches.add("event " + e.index() + ": expected " + e.phases() + " -> " + e.state()
                                    + ", got " + view.status().phases() + " -> " + view.phase() + " errors "
                                    + view.status().errors());
                        }
                    }
                    assertThat(mismatches).as(rec.file().toString()).isEmpty();
                    assertThat(drifted)
                            .as("events listed as definition drift in nvidia-definition-drift.yaml")
                            .containsExactlyInAnyOrderElementsOf(expectedDrift);
                }));
    }

    private static Map<String, Set<Integer>> drift() throws IOException {
        return RecordedEvents.exceptions(
                NvidiaDefinitionCompatibilityTest.class, "/nvidia-definition-drift.yaml", "drift");
    }

    @Test
    void recordedVocabularyCoversOnlyKnownPhases() {
        assertThat(RecordedEvents.phase("Progressing")).isEqualTo(Phase.INITIALIZING);
        assertThat(RecordedEvents.phase("Pending")).isEqualTo(Phase.INITIALIZING);
        assertThat(RecordedEvents.phase("Degraded")).isEqualTo(Phase.DEGRADED);
    }
}
