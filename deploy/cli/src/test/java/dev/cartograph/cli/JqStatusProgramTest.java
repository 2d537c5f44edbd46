package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.resolve.StatusEvaluator;
import dev.cartograph.interpreter.view.Phase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's jq translation computes the same phases as Cartograph, checked with the real jq. */
@Timeout(60)
class JqStatusProgramTest {
    @TempDir
    Path dir;

    @Test
    void jqProgramAgreesWithTheInterpreterOnAJobSetLifecycle() throws Exception {
        assumeTrue(new ProcessBuilder("jq", "--version").start().waitFor() == 0, "the jq program is not installed");
        WorkloadDefinition jobset = Catalog.load()
                .definitions()
                .named("jobset-x-k8s-io-jobset-v1alpha2")
                .orElseThrow();
        List<String> statuses = List.of(
                "{}",
                "{\"replicatedJobsStatus\":[{\"name\":\"w\",\"active\":0,\"ready\":0}]}",
                "{\"replicatedJobsStatus\":[{\"name\":\"w\",\"active\":2,\"ready\":1,\"failed\":0}]}",
                "{\"conditions\":[{\"type\":\"Suspended\",\"status\":\"False\"}],\"replicatedJobsStatus\":[{\"name\":\"w\",\"active\":1}]}",
                "{\"conditions\":[{\"type\":\"Completed\",\"status\":\"True\"}],\"replicatedJobsStatus\":[{\"name\":\"w\",\"succeeded\":1}]}",
                "{\"conditions\":[{\"type\":\"Suspended\",\"status\":\"True\"}]}");
        Path program = dir.resolve("p.jq");
        Files.writeString(program, JqStatusProgram.of(jobset.status()));
        StringBuilder input = new StringBuilder();
        for (String s : statuses) {
            input.append("{\"apiVersion\":\"jobset.x-k8s.io/v1alpha2\",\"kind\":\"JobSet\",\"status\":")
                    .append(s)
                    .append("}\n");
        }
        Path in = dir.resolve("in.jsonl");
        Files.writeString(in, input);
        Process p = new ProcessBuilder("jq", "-c", "-f", program.toString(), in.toString())
                .redirectErrorStream(true)
                .start();
        List<String> out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
        assertThat(p.waitFor()).as(String.join("\n", out)).isZero();
        List<String> ours = input.toString()
                .lines()
                .map(line -> {
                    try {
                        JsonNode o = Documents.json().readTree(line);
                        return StatusEvaluator.evaluate(jobset.status(), o).phases().stream()
                                .map(ph -> "\"" + ph.displayName() + "\"")
                                .collect(Collectors.joining(",", "[", "]"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                })
                .toList();
        assertThat(out).isEqualTo(ours);
        // the lifecycle a person reads from these statuses (phases listed in precedence order)
        assertThat(ours)
                .containsExactly(
                        "[\"Undefined\"]",
                        "[\"Initializing\"]",
                        "[\"Running\"]",
                        "[\"Running\",\"Initializing\"]",
                        "[\"Completed\"]",
                        "[\"Suspended\"]");
        assertThat(Phase.choose(List.of(Phase.INITIALIZING, Phase.RUNNING))).isEqualTo(Phase.RUNNING);
    }
}
