package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.mutate.PodPatch;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The interpreter's public API in one runnable example: load, resolve, read the view, mutate. */
@Timeout(30)
class UsageExampleTest {

    @Test
    void loadResolveAndPatch() throws Exception {
        // 1. Load definitions (a file, a folder, a classpath folder, or a stream) and see every problem.
        Definitions.Loaded loaded = Definitions.read(stream(ResolveTest.DEFINITION), "example.yaml");
        assertThat(loaded.problems()).isEmpty();
        Interpreter interpreter = Interpreter.of(loaded.definitions());

        // 2. Resolve any object; the outcome is a value, never an exception.
        List<JsonNode> objects = Documents.read(stream("""
                apiVersion: example.com/v1
                kind: Pools
                metadata: {name: demo}
                spec: {groups: 2, size: 2, leader: {spec: {containers: [{name: l}]}}, worker: {spec: {containers: [{name: w}]}}}
                """));
        Resolution resolution = interpreter.resolve(objects.get(0));
        if (!(resolution instanceof Resolution.Resolved resolved)) {
            throw new AssertionError(resolution.problems());
        }

        // 3. Read the view: totals, gang, status.
        assertThat(resolved.view().totals().pods()).isEqualTo(4);
        assertThat(resolved.view().gang().minMember()).isEqualTo(4);
        assertThat(resolved.view().phase().displayName()).isEqualTo("Undefined");

        // 4. Rewrite every pod template, shape-blind.
        JsonNode patched = interpreter
                .patchPods(objects.get(0), PodPatch.EMPTY.withSchedulerName("kai-scheduler"), Optional.empty())
                .object();
        assertThat(patched.at("/spec/worker/spec/schedulerName").asText()).isEqualTo("kai-scheduler");
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
