package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** carto validate / describe / definitions, end to end through picocli, with their exit codes. */
@Timeout(60)
class CartoTest {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    /** carto with an empty environment (no CARTOGRAPH_TOKEN or CARTOGRAPH_BROKER_URL, whatever this JVM has). */
    static Run carto(String... args) {
        return carto(Map.of(), args);
    }

    static Run carto(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new Carto(env));
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static final String NEW_KIND_DEFINITION = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: example-com-trainer-v1}
            spec:
              structureDefinition:
                rootComponent:
                  name: trainer
                  kind: {group: example.com, version: v1, kind: Trainer}
                  statusDefinition:
                    statusMappings:
                      running: [{byExpression: {expression: '.status.state == "Active"', expectedResult: "true"}}]
                childComponents:
                  - name: node
                    ownerRef: trainer
                    specDefinition: {podTemplateSpecPath: .spec.nodeTemplate}
                    scaleDefinition: {replicasPath: .spec.nodes}
              optimizationInstructions:
                gangScheduling:
                  podGroup: {name: trainer}
            """;

    private static final String NEW_KIND_OBJECT = """
            apiVersion: example.com/v1
            kind: Trainer
            metadata: {name: t1, namespace: ml}
            spec:
              nodes: 4
              nodeTemplate: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}}
            status: {state: Active}
            """;

    @Test
    void describesAKindCartographHasNeverSeenFromADefinitionFile() throws Exception {
        Path def = write("trainer-def.yaml", NEW_KIND_DEFINITION);
        Path obj = write("trainer.yaml", NEW_KIND_OBJECT);
        Run run = carto("describe", "-f", obj.toString(), "--definitions", def.toString(), "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = Documents.json().readTree(run.out());
        assertThat(json.path("pods").asLong()).isEqualTo(4);
        assertThat(json.path("resources").path("gpus").asLong()).isEqualTo(32);
        assertThat(json.path("phase").asText()).isEqualTo("Running");
        assertThat(json.path("gang").path("minMember").asLong()).isEqualTo(4);
        assertThat(json.path("origin").asText()).isEqualTo(def.toString());
        assertThat(json.at("/components/0/children/0/instances/0/perPod/gpus").asLong())
                .isEqualTo(8);
    }

    @Test
    void noDefinitionExitsThreeWithAMachineReadableError() throws Exception {
        Path obj = write("trainer.yaml", NEW_KIND_OBJECT);
        Run run = carto("describe", "-f", obj.toString(), "-o", "json");
        assertThat(run.exit()).isEqualTo(3);
        JsonNode json = Documents.json().readTree(run.out());
        assertThat(json.path("error").asText()).isEqualTo("no_definition");
        assertThat(json.path("kind").asText()).isEqualTo("Trainer");
    }

    @Test
    void validateExitCodes() throws Exception {
        assertThat(carto("validate", write("ok.yaml", NEW_KIND_DEFINITION).toString())
                        .exit())
                .isZero();
        Run invalid = carto(
                "validate",
                write("bad.yaml", NEW_KIND_DEFINITION.replace("ownerRef: trainer", "ownerRef: ghost"))
                        .toString());
        assertThat(invalid.exit()).isEqualTo(1);
        assertThat(invalid.err())
                .contains("spec.structureDefinition.childComponents[0].ownerRef: names component 'ghost'");
        assertThat(carto("validate", dir.resolve("missing.yaml").toString()).exit())
                .isEqualTo(2);
        assertThat(carto("validate", write("junk.yaml", "{ not: yaml: at all").toString())
                        .exit())
                .isEqualTo(2);
    }

    @Test
    void tableShowsTheComponentTreePhaseAndTotals() throws Exception {
        Path def = write("trainer-def.yaml", NEW_KIND_DEFINITION);
        Path obj = write("trainer.yaml", NEW_KIND_OBJECT);
        Run run = carto("describe", "-f", obj.toString(), "--definitions", def.toString());
        assertThat(run.out())
                .contains("Trainer ml/t1")
                .contains("└─ node")
                .contains("Phase:   Running")
                .contains("Totals:  4 pods, 32 GPUs");
    }

    @Test
    void definitionsListsTheCatalogWithOrigin() {
        Run run = carto("definitions", "--local");
        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .contains("jobset-x-k8s-io-jobset-v1alpha2")
                .contains("JobSet.jobset.x-k8s.io")
                .contains("catalog");
    }

    @Test
    void completionScriptsForBashAndZsh() {
        Run bash = carto("completion", "bash");
        assertThat(bash.exit()).isZero();
        assertThat(bash.out()).contains("_complete_carto").contains("describe").contains("get");
        assertThat(carto("completion", "zsh").out()).startsWith("autoload -U +X compinit");
        assertThat(carto("completion", "fish").exit()).isEqualTo(2);
    }
}
