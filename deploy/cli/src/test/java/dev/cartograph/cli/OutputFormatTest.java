package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code -o}: every value is checked (exit 2, the allowed values named), and listings print json and yaml. */
@Timeout(60)
class OutputFormatTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "get jobsets          | table, wide, json, yaml",
                "describe -f x.yaml   | table, json, yaml",
                "definitions --local  | table, json, yaml",
                "plan -f x.yaml       | table, json, yaml",
                "fleet --broker http://127.0.0.1:1 | table, json, yaml",
                "usage --broker http://127.0.0.1:1 | table, json, yaml"
            })
    void anUnknownOutputIsAUsageErrorNamingTheAllowedValues(String command, String allowed) {
        List<String> args = new java.util.ArrayList<>(List.of(command.trim().split("\\s+")));
        args.addAll(List.of("-o", "bogus"));
        CartoTest.Run run = CartoTest.carto(args.toArray(String[]::new));
        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("'bogus' is not one of " + allowed);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void definitionsAsJsonIsAListThatValidateReadsBack() throws Exception {
        CartoTest.Run run = CartoTest.carto("definitions", "--local", "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode list = Documents.json().readTree(run.out());
        assertThat(list.path("kind").asText()).isEqualTo("List");
        assertThat(list.path("items"))
                .allSatisfy(d -> assertThat(d.path("kind").asText()).isEqualTo("Karta"));
        assertThat(list.path("items"))
                .extracting(d -> d.path("metadata").path("name").asText())
                .contains("jobset-x-k8s-io-jobset-v1alpha2", "kubeflow-org-pytorchjob-v1");

        Path file = dir.resolve("definitions.json");
        Files.writeString(file, run.out());
        CartoTest.Run validate = CartoTest.carto("validate", file.toString());
        assertThat(validate.exit()).as(validate.err()).isZero();
        assertThat(validate.out())
                .contains("valid: jobset-x-k8s-io-jobset-v1alpha2 (JobSet.v1alpha2.jobset.x-k8s.io, 2 components)");
    }

    @Test
    void oneDefinitionAsYamlOrJsonIsThatKarta() throws Exception {
        CartoTest.Run yaml = CartoTest.carto("definitions", "jobset-x-k8s-io-jobset-v1alpha2", "--local", "-o", "yaml");
        assertThat(yaml.exit()).as(yaml.err()).isZero();
        List<JsonNode> docs = Documents.read(new ByteArrayInputStream(yaml.out().getBytes(StandardCharsets.UTF_8)));
        assertThat(docs).hasSize(1);
        assertThat(docs.get(0)
                        .at("/spec/structureDefinition/rootComponent/kind/kind")
                        .asText())
                .isEqualTo("JobSet");

        CartoTest.Run json = CartoTest.carto("definitions", "jobset-x-k8s-io-jobset-v1alpha2", "--local", "-o", "json");
        assertThat(Documents.json().readTree(json.out())).isEqualTo(docs.get(0));
    }

    @Test
    void anUnknownDefinitionIsAnErrorObjectInJson() throws Exception {
        CartoTest.Run run = CartoTest.carto("definitions", "nope", "--local", "-o", "json");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(Documents.json().readTree(run.out()).path("error").asText()).isEqualTo("no_definition");
    }
}
