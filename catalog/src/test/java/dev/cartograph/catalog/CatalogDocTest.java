package dev.cartograph.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.definition.WorkloadDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docs/catalog.md is written by the build (process-classes) from the definitions; .ci/run fails when
 * the committed page differs from what the build wrote. This checks what the page says.
 */
@Timeout(30)
class CatalogDocTest {

    @Test
    void pageListsEveryDefinitionAndEveryRecordedException() throws Exception {
        String page = CatalogDoc.render(
                Files.readString(Path.of("src/doc/catalog-header.md"), StandardCharsets.UTF_8),
                CatalogDoc.conflicts(Path.of("src/doc/recorded-conflicts.yaml")));
        assertThat(page)
                .contains("| JobSet | `jobset.x-k8s.io/v1alpha2` | [`jobset-x-k8s-io-jobset-v1alpha2`]")
                .contains("## Adding a kind (no Java)")
                .contains("| `batch-job-v1/v1.34.0/completed.yaml` | [1] |");
        for (WorkloadDefinition d : Catalog.load().definitions().all()) {
            assertThat(page).contains("### " + d.name());
        }
        assertThat(Files.readString(Path.of("../docs/catalog.md"), StandardCharsets.UTF_8))
                .isEqualTo(page);
    }
}
