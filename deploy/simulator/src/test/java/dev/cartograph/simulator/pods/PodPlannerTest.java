package dev.cartograph.simulator.pods;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.resolve.PodAttribution;
import dev.cartograph.interpreter.view.WorkloadView;
import dev.cartograph.simulator.status.StatusLibrary;
import dev.cartograph.simulator.status.StatusShapes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PodPlannerTest {
    private static final Path TESTDATA = Path.of("../../catalog/src/test/resources/testdata");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());

    private static JsonNode example(String file) throws IOException {
        ObjectNode object =
                (ObjectNode) YAML.readTree(TESTDATA.resolve(file).toFile()).get("object");
        ((ObjectNode) object.get("metadata")).put("uid", "uid-1");
        return object;
    }

    private static WorkloadView view(JsonNode object) {
        return ((Resolution.Resolved) INTERPRETER.resolve(object)).view();
    }

    @Test
    void plansAnElasticPyTorchJobAsAGangOfItsMinimumAndOneLooseWorker() throws IOException {
        // master 1 + workers 3, elastic minReplicas 2: gang = master + 2 workers, the third worker is loose
        WorkloadPlan plan = PodPlanner.plan(view(example("kubeflow-org-pytorchjob-v1/running.yaml")));

        assertThat(plan.pods())
                .extracting(PlannedPod::name)
                .containsExactly(
                        "elastic-ft-master-0", "elastic-ft-worker-0", "elastic-ft-worker-1", "elastic-ft-worker-2");
        assertThat(plan.gangs())
                .containsExactly(List.of("elastic-ft-master-0", "elastic-ft-worker-0", "elastic-ft-worker-1"));
    }

    @Test
    void plansALeaderWorkerSetAsOneGangPerGroup() throws IOException {
        // 3 groups of size 4: 3 leaders + 9 workers, 3 gangs of 4
        WorkloadPlan plan =
                PodPlanner.plan(view(example("leaderworkerset-x-k8s-io-leaderworkerset-v1/available.yaml")));

        assertThat(plan.pods()).hasSize(12);
        assertThat(plan.gangs()).hasSize(3).allSatisfy(g -> assertThat(g).hasSize(4));
        assertThat(plan.gangs().get(1))
                .containsExactly(
                        "vllm-405b-leader-1", "vllm-405b-worker-3", "vllm-405b-worker-4", "vllm-405b-worker-5");
    }

    @Test
    void namesPodsOfNamedInstancesWithTheInstance() throws IOException {
        // JobSet: workers 2 × parallelism 4 = 8, driver 1
        WorkloadPlan plan = PodPlanner.plan(view(example("jobset-x-k8s-io-jobset-v1alpha2/running.yaml")));

        assertThat(plan.pods())
                .hasSize(9)
                .extracting(PlannedPod::name)
                .contains("llm-pretrain-replicatedjob-workers-7", "llm-pretrain-replicatedjob-driver-0");
        assertThat(plan.gangs()).singleElement().satisfies(g -> assertThat(g).hasSize(9));
    }

    @Test
    void podsCarryAnOwnerReferenceAndLabelsTheDefinitionAttributesToTheirComponent() throws IOException {
        JsonNode object = example("kubeflow-org-pytorchjob-v1/running.yaml");
        WorkloadView view = view(object);
        StatusShapes shapes =
                StatusLibrary.builtIn().forDefinition(view.definition()).orElseThrow();
        PlannedPod worker = PodPlanner.plan(view).pods().get(2);

        ObjectNode pod = PodManifests.build(
                view.identity(),
                worker,
                shapes.labelsFor(
                        "elastic-ft", worker.component(), worker.instance().id(), worker.index(), "0"));

        assertThat(pod.at("/metadata/ownerReferences/0/uid").asText()).isEqualTo("uid-1");
        assertThat(pod.at("/metadata/ownerReferences/0/controller").asBoolean()).isTrue();
        assertThat(pod.at("/spec/containers/0/resources/limits/nvidia.com~1gpu").asInt())
                .isEqualTo(4);
        assertThat(PodAttribution.attribute(INTERPRETER.definitionFor(object).orElseThrow(), pod))
                .hasValueSatisfying(a -> assertThat(a.component()).isEqualTo("worker"));
    }

    @Test
    void aFragmentedSubmitterGetsTheContainerItsDefinitionAssembles() throws IOException {
        // RayJob default submitter: no template in the object, the definition assembles one container
        JsonNode object = example("ray-io-rayjob-v1/initializing.yaml");
        WorkloadView view = view(object);
        PlannedPod submitter = PodPlanner.plan(view).pods().stream()
                .filter(p -> p.component().equals("submitter"))
                .findFirst()
                .orElseThrow();

        ObjectNode pod = PodManifests.build(view.identity(), submitter, java.util.Map.of());

        assertThat(pod.at("/spec/containers/0/name").asText()).isEqualTo("ray-job-submitter");
    }
}
