package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.problem.Problem;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The one rule for laying a cluster's Karta objects over the catalog (the services' Kartas and the CLI both use it). */
@Timeout(10)
class ClusterOverlayTest {
    static final String TRAINER = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: example-com-trainer-v1}
            spec:
              structureDefinition:
                rootComponent:
                  name: trainer
                  kind: {group: example.com, version: v1, kind: Trainer}
                  specDefinition: {podTemplateSpecPath: .spec.template}
                  scaleDefinition: {replicasPath: .spec.replicas}
                  statusDefinition:
                    statusMappings:
                      running: [{byExpression: {expression: '.status.ready == true', expectedResult: "true"}}]
            """;
    static final String BROKEN = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: broken}
            spec: {structureDefinition: {rootComponent: {name: x}}}
            """;

    static List<JsonNode> yaml(String... docs) throws Exception {
        return Documents.read(
                new ByteArrayInputStream(String.join("---\n", docs).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void validClusterKartasOverrideTheCatalogPerKindAndInvalidOnesAreSkippedSayingSo() throws Exception {
        Definitions catalog = Definitions.read(
                        new ByteArrayInputStream(ResolveTest.DEFINITION.getBytes(StandardCharsets.UTF_8)), "catalog")
                .definitions();
        GroupVersionKind trainer = GroupVersionKind.of("example.com/v1", "Trainer");

        Definitions.Loaded overlaid = catalog.overlaidBy(yaml(TRAINER, BROKEN));

        assertThat(overlaid.definitions().find(trainer))
                .as("%s", overlaid.problems())
                .hasValueSatisfying(d -> assertThat(d.origin()).isEqualTo("cluster"));
        assertThat(overlaid.definitions().size()).isEqualTo(catalog.size() + 1);
        assertThat(overlaid.problems())
                .isNotEmpty()
                .filteredOn(Problem::isError)
                .allSatisfy(p -> assertThat(p.message()).endsWith("(cluster definition skipped)"));
        assertThat(catalog.find(trainer)).isEmpty(); // the catalog itself is not changed
    }

    @Test
    void noClusterKartasLeaveTheCatalog() {
        Definitions catalog = Definitions.read(
                        new ByteArrayInputStream(ResolveTest.DEFINITION.getBytes(StandardCharsets.UTF_8)), "catalog")
                .definitions();
        Definitions.Loaded overlaid = catalog.overlaidBy(List.of());
        assertThat(overlaid.problems()).isEmpty();
        assertThat(overlaid.definitions().all()).containsExactlyElementsOf(catalog.all());
    }
}
