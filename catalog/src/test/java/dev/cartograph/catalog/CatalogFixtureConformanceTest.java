package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Every real upstream object in {@code ../shared/fixtures} gives the pods per role and the total
 * GPUs of its hand-counted {@code INDEX.md} row, with the catalog definition of its kind. One
 * dynamic test per fixture; kinds the catalog does not cover yet are skipped by name.
 */
@Timeout(120)
class CatalogFixtureConformanceTest {

    @Test
    void indexParsesTheHandCounts() {
        assertThat(FixtureIndex.roles("workers 4 (replicas 1 default × parallelism 4)"))
                .containsExactly(Map.entry("workers", 4L));
        assertThat(FixtureIndex.roles("leader 2, worker 2 (replicas 2, size 2)"))
                .containsExactly(Map.entry("leader", 2L), Map.entry("worker", 2L));
        assertThat(FixtureIndex.roles("–")).isEmpty();
        assertThat(FixtureIndex.roles("Frontend, VllmDecodeWorker", "1, 1"))
                .containsExactly(Map.entry("Frontend", 1L), Map.entry("VllmDecodeWorker", 1L));
        assertThat(FixtureIndex.roles("dummy-job", "3 (parallelism 3, completions 3)"))
                .containsExactly(Map.entry("dummy-job", 3L));
    }

    @TestFactory
    Stream<DynamicTest> everyFixtureMatchesItsHandCount() throws IOException {
        Path fixtures = SharedData.fixtures().orElse(null);
        assumeTrue(fixtures != null, SharedData.absent("fixtures"));
        List<FixtureIndex> rows = FixtureIndex.read(fixtures);
        assertThat(rows).hasSizeGreaterThanOrEqualTo(60);
        Definitions catalog = Catalog.load().definitions();
        Interpreter interpreter = Interpreter.of(catalog);
        return rows.stream()
                .map(row -> DynamicTest.dynamicTest(row.file(), () -> {
                    JsonNode object;
                    try (InputStream in = Files.newInputStream(fixtures.resolve(row.file()))) {
                        object = Documents.read(in).get(0);
                    }
                    Resolution r = interpreter.resolve(object);
                    assumeTrue(
                            !(r instanceof Resolution.NoDefinition),
                            "catalog has no definition for " + row.kind() + " yet");
                    assertThat(r).isInstanceOf(Resolution.Resolved.class);
                    assertThat(r.problems().stream().filter(Problem::isError))
                            .as("problems")
                            .isEmpty();
                    WorkloadView view = ((Resolution.Resolved) r).view();
                    assertThat(view.totals().pods())
                            .as("total pods (INDEX.md: %s)", row.podsPerRole())
                            .isEqualTo(row.totalPods());
                    assertThat(view.totals().gpus()).as("total GPUs").isEqualTo(row.totalGpus());
                    for (Map.Entry<String, Long> role : row.podsPerRole().entrySet()) {
                        long pods = podsOf(view, role.getKey());
                        if (pods >= 0) {
                            assertThat(pods)
                                    .as("pods of role %s", role.getKey())
                                    .isEqualTo(role.getValue());
                        } else {
                            assertThat(row.podsPerRole())
                                    .as(
                                            "role %s names no component or instance, so it must be the only one",
                                            role.getKey())
                                    .hasSize(1);
                        }
                    }
                }));
    }

    /** Pods of the component or instance named like the role (case-insensitive); -1 when none is. */
    private static long podsOf(WorkloadView view, String role) {
        String wanted = role.toLowerCase(Locale.ROOT);
        long sum = -1;
        for (ComponentView c : view.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (i.hasPods()
                        && (i.id().toLowerCase(Locale.ROOT).equals(wanted)
                                || c.name().toLowerCase(Locale.ROOT).equals(wanted))) {
                    sum = Math.max(sum, 0) + i.replicas().desired();
                }
            }
        }
        return sum;
    }
}
