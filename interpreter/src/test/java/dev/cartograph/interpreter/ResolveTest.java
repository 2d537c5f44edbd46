package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resources.PodRequests;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Resolution rules on objects and definitions written here, with hand-counted expectations. */
@Timeout(30)
class ResolveTest {

    static JsonNode yaml(String text) throws IOException {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    /** A made-up kind: groups of one leader and N workers, plus a list of named pools. */
    static final String DEFINITION = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: example-pools}
            spec:
              structureDefinition:
                rootComponent:
                  name: pools
                  kind: {group: example.com, version: v1, kind: Pools}
                  statusDefinition:
                    statusMappings:
                      running: [{byExpression: {expression: .status.ready, expectedResult: "true"}}]
                childComponents:
                  - name: group
                    ownerRef: pools
                    scaleDefinition: {replicasPath: .spec.groups}
                    podSelector: {replicaSelector: {keyPath: '.metadata.labels["group"]'}}
                  - name: leader
                    ownerRef: group
                    specDefinition: {podTemplateSpecPath: .spec.leader}
                    scaleDefinition: {replicasPath: "1"}
                  - name: worker
                    ownerRef: group
                    specDefinition: {podTemplateSpecPath: .spec.worker}
                    scaleDefinition: {replicasPath: .spec.size - 1}
                  - name: pool
                    ownerRef: pools
                    specDefinition: {podTemplateSpecPath: '.spec.pools[].template'}
                    scaleDefinition:
                      replicasPath: '.spec.pools[].replicas'
                      minReplicasPath: '.spec.pools[].min'
                    instanceIdPath: '.spec.pools[].name'
                    podSelector: {componentInstanceSelector: {idPath: '.metadata.labels["pool"]'}}
              optimizationInstructions:
                gangScheduling:
                  podGroups:
                    - name: group
                      members: [{componentName: group, groupByKeyPaths: ['.metadata.labels["group"]']}]
            """;

    static Interpreter interpreter() {
        Definitions.Loaded loaded = DefinitionValidationTest.read(DEFINITION);
        assertThat(loaded.problems()).isEmpty();
        return Interpreter.of(loaded.definitions());
    }

    static WorkloadView view(String object) throws IOException {
        Resolution r = interpreter().resolve(yaml(object));
        assertThat(r).isInstanceOf(Resolution.Resolved.class);
        return ((Resolution.Resolved) r).view();
    }

    static final String POOLS = """
            apiVersion: example.com/v1
            kind: Pools
            metadata: {name: p, namespace: ns}
            spec:
              groups: 3
              size: 4
              leader: {spec: {containers: [{name: l, resources: {limits: {nvidia.com/gpu: 2}}}]}}
              worker: {spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 1, cpu: 500m, memory: 1Gi}}}]}}
              pools:
                - {name: small, replicas: 2, template: {spec: {containers: [{name: s, resources: {requests: {cpu: "1"}}}]}}}
                - {name: big, replicas: 5, min: 2, template: {spec: {containers: [{name: b, resources: {requests: {cpu: "2"}}}]}}}
            status: {ready: true}
            """;

    @Test
    void ownerScaleMultipliesChildrenAndGangsSplitPerOwnerReplica() throws IOException {
        WorkloadView v = view(POOLS);
        // hand count: leaders 3 x 1, workers 3 x (4-1) = 9, pools 2 + 5 -> 19 pods
        assertThat(v.totals().pods()).isEqualTo(19);
        // GPUs: 3 leaders x 2 + 9 workers x 1 = 15
        assertThat(v.totals().gpus()).isEqualTo(15);
        // CPU: 9 x 0.5 + 2 x 1 + 5 x 2 = 16.5 cores
        assertThat(v.totals().cpuMillis()).isEqualTo(16_500);
        assertThat(v.gang().groups()).singleElement().satisfies(g -> {
            assertThat(g.count()).isEqualTo(3);
            assertThat(g.minMember()).isEqualTo(4);
        });
        assertThat(v.gang().minMember()).isEqualTo(12);
        assertThat(v.phase().displayName()).isEqualTo("Running");
    }

    @Test
    void instanceIdsZipWithArrayPathsByIndexAndMinimumsApply() throws IOException {
        WorkloadView v = view(POOLS);
        var pool =
                v.components().filter(c -> c.name().equals("pool")).findFirst().orElseThrow();
        assertThat(pool.instances()).extracting(InstanceView::id).containsExactly("small", "big");
        assertThat(pool.instances().get(0).replicas().min()).isEqualTo(2); // no minReplicas: min = replicas
        assertThat(pool.instances().get(1).replicas().min()).isEqualTo(2);
        assertThat(pool.instances().get(1).replicas().desired()).isEqualTo(5);
        assertThat(pool.instances().get(1).perPod().cpuMillis()).isEqualTo(2000);
    }

    @Test
    void mismatchedLengthsAreReportedNotZeroed() throws IOException {
        String object = POOLS.replace("- {name: small, replicas: 2,", "- {name: small, replicas: [2, 3],")
                .replace("replicasPath: '.spec.pools[].replicas'", "x");
        Definitions.Loaded loaded = DefinitionValidationTest.read(DEFINITION.replace(
                "replicasPath: '.spec.pools[].replicas'",
                "replicasPath: '.spec.pools[].replicas | if type == \"array\" then .[] else . end'"));
        Resolution r = Interpreter.of(loaded.definitions()).resolve(yaml(object));
        assertThat(r.problems())
                .extracting(Problem::toString)
                .anyMatch(p ->
                        p.contains("childComponents[3].scaleDefinition.replicasPath: yields 3 values for 2 instances"));
        WorkloadView v = ((Resolution.Resolved) r).view();
        assertThat(v.components()
                        .filter(c -> c.name().equals("pool"))
                        .findFirst()
                        .orElseThrow()
                        .instances())
                .isEmpty();
        assertThat(v.totals().pods()).isEqualTo(12); // the rest of the view still stands
    }

    @Test
    void malformedObjectsAreValuesNotExceptions() throws IOException {
        assertThat(interpreter().resolve(yaml("[1, 2]"))).isInstanceOf(Resolution.Invalid.class);
        assertThat(interpreter().resolve(yaml("kind: Pools\nmetadata: {name: x}")))
                .isInstanceOf(Resolution.Invalid.class);
        Resolution r = interpreter().resolve(yaml(POOLS.replace("groups: 3", "groups: three")));
        assertThat(r.problems())
                .extracting(Problem::toString)
                .anyMatch(
                        p -> p.startsWith(
                                "Pools ns/p: definition example-pools spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath: is not a replica count"));
        assertThat(interpreter().resolve(yaml("apiVersion: v9\nkind: Nope\nmetadata: {name: n}")))
                .isInstanceOf(Resolution.NoDefinition.class);
    }

    @Test
    void effectiveRequestTakesTheLargerOfInitAndAppsPlusSidecars() throws IOException {
        JsonNode spec = yaml("""
                initContainers:
                  - {name: sidecar, restartPolicy: Always, resources: {requests: {cpu: 200m, memory: 100Mi}}}
                  - {name: download, resources: {requests: {cpu: "2", memory: 64Mi}}}
                containers:
                  - {name: a, resources: {requests: {cpu: 500m}, limits: {memory: 1Gi, nvidia.com/gpu: "4"}}}
                  - {name: b, resources: {requests: {cpu: 250m, memory: 256Mi}}}
                overhead: {cpu: 100m}
                """);
        var request = PodRequests.of(spec).request();
        // cpu: max(0.5 + 0.25 + 0.2 sidecar = 0.95, 2 + 0.2 sidecar before it = 2.2) + 0.1 overhead = 2.3
        assertThat(request.cpuMillis()).isEqualTo(2300);
        // memory: max(1Gi + 256Mi + 100Mi, 64Mi + 100Mi) = 1380Mi (limit stands in for the missing request)
        assertThat(request.memoryBytes()).isEqualTo(1380L * 1024 * 1024);
        assertThat(request.gpus()).isEqualTo(4);
    }
}
