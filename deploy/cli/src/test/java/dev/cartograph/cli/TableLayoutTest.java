package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.view.WorkloadView;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pins the table layouts users read, for a JobSet, a LeaderWorkerSet and a RayCluster (counts by hand). */
@Timeout(30)
class TableLayoutTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T12:00:00Z"), ZoneOffset.UTC);
    private static final Interpreter INTERPRETER = Interpreter.of(Catalog.load().definitions());

    static WorkloadView view(String yaml) throws Exception {
        return ((Resolution.Resolved) INTERPRETER.resolve(ResolveYaml.one(yaml))).view();
    }

    static final String JOBSET = """
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata: {name: pretrain, namespace: research, creationTimestamp: "2026-12-02T09:00:00Z"}
            spec:
              replicatedJobs:
                - name: workers
                  replicas: 2
                  template: {spec: {parallelism: 4, template: {spec: {containers: [{name: t, image: x, resources: {limits: {nvidia.com/gpu: 8, cpu: "32", memory: 512Gi}}}]}}}}
                - name: driver
                  template: {spec: {template: {spec: {containers: [{name: d, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]}}}}
            status:
              replicatedJobsStatus: [{name: workers, active: 8, ready: 8}, {name: driver, active: 1, ready: 1}]
            """;

    static final String LWS = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: vllm, namespace: serve, creationTimestamp: "2026-11-29T12:00:00Z"}
            spec:
              replicas: 2
              leaderWorkerTemplate:
                size: 4
                leaderTemplate: {spec: {containers: [{name: l, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]}}
                workerTemplate: {spec: {containers: [{name: w, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]}}
            status:
              conditions: [{type: Available, status: "True"}]
            """;

    static final String RAY = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata: {name: tune, namespace: ml, creationTimestamp: "2026-12-02T11:59:15Z"}
            spec:
              headGroupSpec: {template: {spec: {containers: [{name: head, image: x, resources: {limits: {cpu: "4", memory: 16Gi}}}]}}}
              workerGroupSpecs:
                - groupName: gpu
                  replicas: 3
                  minReplicas: 1
                  maxReplicas: 6
                  template: {spec: {containers: [{name: w, image: x, resources: {limits: {nvidia.com/gpu: 2, cpu: "8", memory: 64Gi}}}]}}
            status: {state: ready}
            """;

    @Test
    void getTablePinsColumnsForThreeKinds() throws Exception {
        List<WorkloadRow> rows = List.of(
                new WorkloadRow("research", "pretrain", "JobSet", view(JOBSET), 9),
                new WorkloadRow("serve", "vllm", "LeaderWorkerSet", view(LWS), 6),
                new WorkloadRow("ml", "tune", "RayCluster", view(RAY), 4));
        // JobSet: 2x4 workers + 1 driver = 9 pods, 64 GPUs; LWS: 2 groups x 4 = 8 pods x 8 GPUs = 64; Ray: 1 head + 3
        // workers, 6 GPUs
        assertThat(WorkloadRow.table(rows, true, true, false, CLOCK)).isEqualTo("""
                NAMESPACE  NAME      KIND             PHASE    PODS  GPUS  AGE
                research   pretrain  JobSet           Running  9/9   64    3h
                serve      vllm      LeaderWorkerSet  Running  6/8   64    3d
                ml         tune      RayCluster       Running  4/4   6     45s
                """);
    }

    @Test
    void onAHubPlacedObjectsShowTheirClusterAndNoPodReadiness() throws Exception {
        List<WorkloadRow> rows = List.of(
                new WorkloadRow("research", "pretrain", "JobSet", view(JOBSET), 0, "gpu-west"),
                new WorkloadRow("ml", "tune", "RayCluster", view(RAY), 4));
        assertThat(WorkloadRow.table(rows, true, false, false, CLOCK)).isEqualTo("""
                NAMESPACE  NAME      CLUSTER   PHASE    PODS  GPUS  AGE
                research   pretrain  gpu-west  Running  -/9   64    3h
                ml         tune      -         Running  4/4   6     45s
                """);
    }

    @Test
    void describeTablePinsTheComponentTree() throws Exception {
        assertThat(ViewTable.of(view(LWS), List.of())).isEqualTo("""
                LeaderWorkerSet serve/vllm  (leaderworkerset.x-k8s.io/v1)
                Definition: leaderworkerset-x-k8s-io-leaderworkerset-v1 (catalog)

                COMPONENT        INSTANCE         DESIRED  MIN  MAX  GPU/POD  CPU/POD  MEM/POD
                leaderworkerset  leaderworkerset  1        1    -    -        -        -
                └─ group         group            2        2    -    -        -        -
                   ├─ leader     leader           2        2    -    8        0        0
                   └─ worker     worker           6        6    -    8        0        0

                Phase:   Running
                Totals:  8 pods, 64 GPUs, 0 CPU, 0 memory
                Gang:    minMember 8 = 2×group(4)
                """);
        assertThat(ViewTable.of(view(JOBSET), List.of()))
                .contains("""
                COMPONENT         INSTANCE  DESIRED  MIN  MAX  GPU/POD  CPU/POD  MEM/POD
                jobset            jobset    1        1    -    -        -        -
                └─ replicatedjob  workers   8        8    -    8        32       512Gi
                                  driver    1        1    -    0        500m     1Gi
                """)
                .contains("Totals:  9 pods, 64 GPUs, 256500m CPU, 4097Gi memory");
    }
}
