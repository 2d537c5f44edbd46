package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Quantities and replica counts that no cluster could honour are problems of the object, named by
 * their field, never exceptions later: resolving such an object gives {@link Resolution.Invalid}
 * listing every one. Expectations are hand-counted in the comments.
 */
@Timeout(30)
class HostileNumbersTest {
    /** Kubeflow's PyTorchJob as NVIDIA's definition reads it, trimmed to its structure. */
    static final String PYTORCH = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: pytorchjob-test}
            spec:
              structureDefinition:
                rootComponent:
                  name: pytorchjob
                  kind: {group: kubeflow.org, version: v1, kind: PyTorchJob}
                  statusDefinition:
                    conditionsDefinition: {path: .status.conditions}
                    statusMappings:
                      running: [{byConditions: [{type: Running, status: "True"}]}]
                childComponents:
                  - name: master
                    ownerRef: pytorchjob
                    specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Master.template}
                    scaleDefinition: {replicasPath: .spec.pytorchReplicaSpecs.Master.replicas // 1}
                  - name: worker
                    ownerRef: pytorchjob
                    specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Worker.template}
                    scaleDefinition: {replicasPath: .spec.pytorchReplicaSpecs.Worker.replicas // 1}
            """;

    private static final String WORKER_REPLICAS =
            "definition pytorchjob-test " + "spec.structureDefinition.childComponents[1].scaleDefinition.replicasPath";
    private static final String WORKER_CONTAINER = "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0]";

    /** A job of one master and {@code workerReplicas} workers, each asking for {@code workerResources}. */
    static String job(String workerReplicas, String workerResources) {
        return """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: train, namespace: ml}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template: {spec: {containers: [{name: pytorch, resources: {limits: {nvidia.com/gpu: 1}}}]}}
                    Worker:
                      replicas: %s
                      template: {spec: {containers: [{name: pytorch, resources: %s}]}}
                """.formatted(workerReplicas, workerResources);
    }

    private static Resolution resolve(String object) throws IOException {
        Definitions.Loaded loaded = DefinitionValidationTest.read(PYTORCH);
        assertThat(loaded.problems()).isEmpty();
        return Interpreter.of(loaded.definitions()).resolve(ResolveTest.yaml(object));
    }

    private static Problem invalidWithOneProblem(String object) throws IOException {
        Resolution r = resolve(object);
        assertThat(r).isInstanceOf(Resolution.Invalid.class);
        assertThat(r.problems()).hasSize(1);
        Problem p = r.problems().get(0);
        assertThat(p.isError()).isTrue();
        assertThat(p.subject()).isEqualTo("PyTorchJob ml/train");
        return p;
    }

    @Test
    void aSaneJobResolves() throws IOException {
        Resolution r = resolve(job("3", "{limits: {nvidia.com/gpu: 8, cpu: '16', memory: 64Gi}}"));
        assertThat(r).isInstanceOf(Resolution.Resolved.class);
        assertThat(r.problems()).isEmpty();
        // 1 master × 1 GPU + 3 workers × 8 GPUs = 25; memory 3 × 64 Gi = 192 Gi
        assertThat(((Resolution.Resolved) r).view().totals().gpus()).isEqualTo(25);
        assertThat(((Resolution.Resolved) r).view().totals().memoryBytes()).isEqualTo(192L << 30);
    }

    @Test
    void gpusBeyondTheCeilingAreAProblemOfTheirFieldNotAnOverflow() throws IOException {
        Problem p = invalidWithOneProblem(job("2", "{limits: {nvidia.com/gpu: '1e19'}}"));
        assertThat(p.field()).isEqualTo(WORKER_CONTAINER + ".resources.limits[\"nvidia.com/gpu\"]");
        assertThat(p.message()).contains("1e19").contains("larger than");
        // the same amount written as a YAML number
        Problem number = invalidWithOneProblem(job("2", "{limits: {nvidia.com/gpu: 1e19}}"));
        assertThat(number.field()).isEqualTo(WORKER_CONTAINER + ".resources.limits[\"nvidia.com/gpu\"]");
    }

    @Test
    void negativeAndUnreadableQuantitiesAreProblemsOfTheirField() throws IOException {
        Problem negative = invalidWithOneProblem(job("2", "{requests: {cpu: '-500m'}}"));
        assertThat(negative.field()).isEqualTo(WORKER_CONTAINER + ".resources.requests.cpu");
        assertThat(negative.message()).contains("-500m").contains("negative");

        Problem lots = invalidWithOneProblem(job("2", "{requests: {memory: lots}}"));
        assertThat(lots.field()).isEqualTo(WORKER_CONTAINER + ".resources.requests.memory");
        assertThat(lots.message()).contains("'lots' is not a Kubernetes quantity");

        Problem huge = invalidWithOneProblem(job("2", "{requests: {cpu: '1e999999999'}}"));
        assertThat(huge.field()).isEqualTo(WORKER_CONTAINER + ".resources.requests.cpu");
    }

    @Test
    void replicaCountsThatAreNotCountsAreProblemsNamingTheObjectField() throws IOException {
        String[][] cases = {
            {"-1", "negative"},
            {"'3'", "not a number"},
            {"1.5", "not a whole number"},
            {"1e12", "more than the ceiling of 1000000"},
            {"true", "not a number"},
        };
        for (String[] c : cases) {
            Problem p = invalidWithOneProblem(job(c[0], "{limits: {nvidia.com/gpu: 1}}"));
            assertThat(p.field()).as(c[0]).isEqualTo(WORKER_REPLICAS);
            assertThat(p.message())
                    .as(c[0])
                    .startsWith("is not a replica count")
                    .contains(c[1])
                    .contains("spec.pytorchReplicaSpecs.Worker.replicas");
        }
    }

    @Test
    void everyProblemIsListed() throws IOException {
        String object = job("-1", "{limits: {nvidia.com/gpu: '1e19', memory: lots}}")
                .replace("replicas: 1\n", "replicas: 2.5\n");
        Resolution r = resolve(object);
        assertThat(r).isInstanceOf(Resolution.Invalid.class);
        assertThat(r.problems())
                .extracting(Problem::field)
                .containsExactlyInAnyOrder(
                        "definition pytorchjob-test spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath",
                        WORKER_REPLICAS,
                        WORKER_CONTAINER + ".resources.limits[\"nvidia.com/gpu\"]",
                        WORKER_CONTAINER + ".resources.limits.memory");
    }

    @Test
    void oneExbibytePerPodIsLegalButNotTimesManyReplicas() throws IOException {
        // 2 × 1 Ei = 2^61 bytes: fits
        Resolution two = resolve(job("2", "{limits: {memory: 1Ei}}"));
        assertThat(two).isInstanceOf(Resolution.Resolved.class);
        assertThat(((Resolution.Resolved) two).view().totals().memoryBytes()).isEqualTo(1L << 61);
        // 16 × 1 Ei = 2^64 bytes: more than a long can count
        Problem sixteen = invalidWithOneProblem(job("16", "{limits: {memory: 1Ei}}"));
        assertThat(sixteen.field()).isEqualTo(WORKER_REPLICAS);
        assertThat(sixteen.message()).contains("memory");
    }

    @Test
    void ownerScaleBeyondTheCeilingIsAProblem() throws IOException {
        // ResolveTest's pools: 1,000,000 groups of (1,000,000 - 1) workers = ~10^12 worker pods in one instance
        Resolution r = ResolveTest.interpreter().resolve(ResolveTest.yaml("""
                apiVersion: example.com/v1
                kind: Pools
                metadata: {name: p, namespace: ns}
                spec:
                  groups: 1000000
                  size: 1000000
                  leader: {spec: {containers: [{name: l}]}}
                  worker: {spec: {containers: [{name: w}]}}
                """));
        assertThat(r).isInstanceOf(Resolution.Invalid.class);
        assertThat(r.problems())
                .extracting(Problem::toString)
                .anyMatch(p -> p.contains("childComponents[2].scaleDefinition.replicasPath") && p.contains("ceiling"));
    }

    @Test
    void conversionsOfAmountsBeyondALongSaturateInsteadOfThrowing() {
        ResourceList absurd = new ResourceList(Map.of(
                ResourceList.GPU,
                new BigDecimal("1e19"),
                ResourceList.CPU,
                new BigDecimal("1e17"),
                ResourceList.MEMORY,
                new BigDecimal("-1e19")));
        assertThat(absurd.gpus()).isEqualTo(Long.MAX_VALUE);
        assertThat(absurd.cpuMillis()).isEqualTo(Long.MAX_VALUE); // 1e20 millicores
        assertThat(absurd.memoryBytes()).isEqualTo(Long.MIN_VALUE);
        // a nanocore rounds up to one millicore, as Kubernetes does
        assertThat(new ResourceList(Map.of(ResourceList.CPU, new BigDecimal("1e-9"))).cpuMillis())
                .isEqualTo(1);
    }

    @Test
    void quantitiesWithExtremeExponentsAreNotQuantities() {
        assertThat(Quantity.parse("1e999999999")).isEmpty();
        assertThat(Quantity.parse("1e-999999999")).isEmpty();
        assertThat(Quantity.parse("1e99999999999")).isEmpty(); // exponent beyond an int
        assertThat(Quantity.parse("0." + "0".repeat(70) + "1")).isEmpty(); // 71 decimal places
        assertThat(Quantity.parse("1" + "0".repeat(130))).isEmpty(); // 131 characters
        // sums of the most precise quantities still print as quantities (what agents send the broker)
        BigDecimal fine = Quantity.parse("123456789012345678." + "1".repeat(64)).orElseThrow();
        assertThat(Quantity.parse(Quantity.format(fine.add(fine).add(fine))))
                .contains(fine.multiply(BigDecimal.valueOf(3)));
        assertThat(Quantity.parse("1e19")).contains(new BigDecimal("1e19"));
        assertThat(Quantity.parse("1Ei")).contains(BigDecimal.valueOf(1L << 60));
    }
}
