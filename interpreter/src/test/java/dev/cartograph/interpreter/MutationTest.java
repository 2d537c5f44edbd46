package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.mutate.Mutator;
import dev.cartograph.interpreter.mutate.PodPatch;
import dev.cartograph.interpreter.problem.Problem;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pod patches and suspend land only where the definition points; everything else is untouched. */
@Timeout(30)
class MutationTest {

    private static final PodPatch PATCH = PodPatch.EMPTY
            .withLabel("cartograph.dev/placement", "p-1")
            .withSchedulerName("kai-scheduler")
            .withToleration(
                    JsonNodeFactory.instance.objectNode().put("key", "gpu").put("operator", "Exists"))
            .withNodeSelector("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");

    @Test
    void patchesEveryPodTemplateAndNothingElse() throws IOException {
        Interpreter interpreter = ResolveTest.interpreter();
        JsonNode original = ResolveTest.yaml(POOLS_WITH_LABELS);
        Mutator.Result result = interpreter.patchPods(original, PATCH, Optional.empty());
        assertThat(result.problems()).isEmpty();
        assertThat(result.changed()).isEqualTo(4); // leader, worker, two pools
        JsonNode patched = result.object();
        for (String at :
                new String[] {"/spec/leader", "/spec/worker", "/spec/pools/0/template", "/spec/pools/1/template"}) {
            assertThat(patched.at(at + "/metadata/labels/cartograph.dev~1placement")
                            .asText())
                    .as(at)
                    .isEqualTo("p-1");
            assertThat(patched.at(at + "/spec/schedulerName").asText()).isEqualTo("kai-scheduler");
            assertThat(patched.at(at + "/spec/tolerations/0/key").asText()).isEqualTo("gpu");
        }
        assertThat(patched.at("/spec/leader/metadata/labels/team").asText()).isEqualTo("llm");
        // undo exactly what the patch added: the rest must equal the original, byte for byte in JSON
        assertThat(undo(patched)).isEqualTo(original);
        assertThat(original.at("/spec/leader/spec/schedulerName").isMissingNode())
                .isTrue(); // input untouched
    }

    @Test
    void patchesOneComponentOnly() throws IOException {
        Mutator.Result result =
                ResolveTest.interpreter().patchPods(ResolveTest.yaml(POOLS_WITH_LABELS), PATCH, Optional.of("worker"));
        assertThat(result.changed()).isEqualTo(1);
        assertThat(result.object().at("/spec/leader/spec/schedulerName").isMissingNode())
                .isTrue();
        assertThat(ResolveTest.interpreter()
                        .patchPods(ResolveTest.yaml(POOLS_WITH_LABELS), PATCH, Optional.of("nope"))
                        .problems())
                .extracting(Problem::toString)
                .anyMatch(p -> p.contains("has no component 'nope'"));
    }

    @Test
    void suspendWithoutADefinitionIsAProblemNotAnException() throws IOException {
        Mutator.Result r = ResolveTest.interpreter().suspend(ResolveTest.yaml(POOLS_WITH_LABELS));
        assertThat(r.changed()).isZero();
        assertThat(r.problems()).extracting(Problem::toString).anyMatch(p -> p.contains("does not say how to suspend"));
    }

    private static JsonNode undo(JsonNode patched) {
        JsonNode copy = patched.deepCopy();
        for (String at :
                new String[] {"/spec/leader", "/spec/worker", "/spec/pools/0/template", "/spec/pools/1/template"}) {
            ObjectNode template = (ObjectNode) copy.at(at);
            ObjectNode labels = (ObjectNode) template.at("/metadata/labels");
            labels.remove("cartograph.dev/placement");
            if (labels.isEmpty()) {
                ((ObjectNode) template.get("metadata")).remove("labels");
            }
            if (template.get("metadata").isEmpty()) {
                template.remove("metadata");
            }
            ObjectNode spec = (ObjectNode) template.get("spec");
            spec.remove("schedulerName");
            spec.remove("tolerations");
            spec.remove("nodeSelector");
        }
        return copy;
    }

    private static final String POOLS_WITH_LABELS = """
            apiVersion: example.com/v1
            kind: Pools
            metadata: {name: p, namespace: ns}
            spec:
              groups: 1
              size: 2
              leader: {metadata: {labels: {team: llm}}, spec: {containers: [{name: l, image: x}]}}
              worker: {spec: {containers: [{name: w, image: y}]}}
              pools:
                - {name: small, replicas: 2, template: {spec: {containers: [{name: s}]}}}
                - {name: big, replicas: 5, template: {metadata: {annotations: {a: b}}, spec: {containers: [{name: b}]}}}
            """;
}
