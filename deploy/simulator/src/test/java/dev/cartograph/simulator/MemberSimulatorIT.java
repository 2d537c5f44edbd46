package dev.cartograph.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@EnableKubernetesMockClient(crud = true)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemberSimulatorIT {
    KubernetesClient client;

    private Member member;
    private MutableClock clock;
    private MemberSimulator sim;

    // master 1 + workers 3, each 4 GPUs, no elastic policy: 4 pods, 16 GPUs, one gang of 4
    private static final String TRAIN = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: train
              namespace: ml
              labels:
                app.kubernetes.io/managed-by: cartograph-agent
                cartograph.dev/placement-id: p-1
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template:
                    spec:
                      containers:
                      - name: pytorch
                        image: nvcr.io/nvidia/pytorch:24.08-py3
                        resources:
                          limits:
                            nvidia.com/gpu: 4
                Worker:
                  replicas: 3
                  template:
                    spec:
                      containers:
                      - name: pytorch
                        image: nvcr.io/nvidia/pytorch:24.08-py3
                        resources:
                          limits:
                            nvidia.com/gpu: 4
            """;

    @BeforeEach
    void setUp() {
        member = new Member(client);
        member.installCrds();
        member.addGpuNode("gpu-a");
        member.addGpuNode("gpu-b");
        clock = new MutableClock(Instant.parse("2026-05-01T10:00:00Z"));
        sim = MemberSimulators.create(
                client,
                Catalog.load().definitions(),
                SimulatorSettings.defaults()
                        .withCluster("member-1")
                        .withClock(clock)
                        .withBatchRunTime(Duration.ofSeconds(30)));
    }

    @Test
    void runsAgentAppliedPyTorchJobThenCompletesItAfterTheRunTime() {
        member.apply(Member.PYTORCHJOBS, TRAIN);

        sim.reconcileOnce();

        List<Pod> pods = member.podsOf("ml", "train");
        assertThat(pods)
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("train-master-0", "train-worker-0", "train-worker-1", "train-worker-2");
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.getSpec().getNodeName()).isIn("gpu-a", "gpu-b");
            assertThat(p.getStatus().getPhase()).isEqualTo("Running");
            assertThat(p.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
                assertThat(o.getKind()).isEqualTo("PyTorchJob");
                assertThat(o.getController()).isTrue();
            });
        });
        assertThat(member.gpusPerNode()).containsEntry("gpu-a", 8).containsEntry("gpu-b", 8);
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.RUNNING);

        clock.advance(Duration.ofSeconds(29));
        sim.reconcileOnce();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.RUNNING);

        clock.advance(Duration.ofSeconds(1));
        sim.reconcileOnce();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.COMPLETED);
        assertThat(member.podsOf("ml", "train"))
                .hasSize(4)
                .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Succeeded"));
        assertThat(member.gpusPerNode()).isEmpty();

        sim.reconcileOnce(); // a completed workload stays completed, its pods are not recreated
        assertThat(member.podsOf("ml", "train")).hasSize(4);
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.COMPLETED);
    }

    @Test
    void bindsNoPodOfAGangThatDoesNotFitUntilAnotherWorkloadIsDeleted() {
        member.apply(Member.PYTORCHJOBS, TRAIN); // 16 GPUs: both nodes full
        sim.reconcileOnce();
        // 1 replicated job × parallelism 2, 4 GPUs each: 2 pods, 8 GPUs, one gang
        member.apply(Member.JOBSETS, """
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: sweep
                  namespace: ml
                  labels:
                    app.kubernetes.io/managed-by: cartograph-agent
                spec:
                  replicatedJobs:
                  - name: trials
                    replicas: 1
                    template:
                      spec:
                        parallelism: 2
                        completions: 2
                        template:
                          spec:
                            containers:
                            - name: trial
                              image: busybox
                              resources:
                                limits:
                                  nvidia.com/gpu: 4
                """);

        sim.reconcileOnce();

        List<Pod> waiting = member.podsOf("ml", "sweep");
        assertThat(waiting)
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("sweep-replicatedjob-trials-0", "sweep-replicatedjob-trials-1");
        assertThat(waiting).allSatisfy(p -> {
            assertThat(p.getSpec().getNodeName()).isNull();
            assertThat(p.getStatus().getPhase()).isEqualTo("Pending");
            assertThat(p.getStatus().getConditions()).singleElement().satisfies(c -> {
                assertThat(c.getType()).isEqualTo("PodScheduled");
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo("Unschedulable");
                assertThat(c.getMessage()).contains("nvidia.com/gpu (needs 4, most free 0)");
            });
        });
        assertThat(member.phase(Member.JOBSETS, "ml", "sweep")).isNotEqualTo(Phase.RUNNING);

        member.delete(Member.PYTORCHJOBS, "ml", "train");
        sim.reconcileOnce();

        assertThat(member.podsOf("ml", "train")).isEmpty();
        assertThat(member.podsOf("ml", "sweep"))
                .hasSize(2)
                .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running"));
        assertThat(member.phase(Member.JOBSETS, "ml", "sweep")).isEqualTo(Phase.RUNNING);
    }

    @Test
    void ignoresWorkloadsWithoutTheAgentLabel() {
        member.apply(
                Member.PYTORCHJOBS, TRAIN.replace("app.kubernetes.io/managed-by: cartograph-agent", "team: research"));

        sim.reconcileOnce();

        assertThat(member.podsOf("ml", "train")).isEmpty();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.UNDEFINED);
    }

    @Test
    void deletesThePodsOfADeletedWorkload() {
        member.apply(Member.PYTORCHJOBS, TRAIN);
        sim.reconcileOnce();
        assertThat(member.podsOf("ml", "train")).hasSize(4);

        member.delete(Member.PYTORCHJOBS, "ml", "train");
        sim.reconcileOnce();

        assertThat(client.pods().inAnyNamespace().list().getItems()).isEmpty();
    }

    @Test
    void keepsALeaderWorkerSetRunningAndHonoursTheRunTimeAnnotation() {
        // 2 groups of size 2 (leader + 1 worker), 2 GPUs each: 4 pods, 8 GPUs, 2 gangs of 2
        member.apply(Member.LWS, """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: serve
                  namespace: infer
                  labels:
                    app.kubernetes.io/managed-by: cartograph-agent
                spec:
                  replicas: 2
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate:
                      spec:
                        containers:
                        - name: vllm
                          image: vllm/vllm-openai
                          resources:
                            limits:
                              nvidia.com/gpu: 2
                """);
        member.apply(
                Member.PYTORCHJOBS,
                TRAIN.replace("name: train", "name: short")
                        .replace(
                                "namespace: ml",
                                "namespace: ml\n  annotations:\n    sim.cartograph.dev/run-seconds: \"5\"")
                        .replace("replicas: 3", "replicas: 1"));

        sim.reconcileOnce();
        assertThat(member.podsOf("infer", "serve")).hasSize(4);
        assertThat(member.phase(Member.LWS, "infer", "serve")).isEqualTo(Phase.RUNNING);
        assertThat(member.podsOf("ml", "short")).hasSize(2);
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "short")).isEqualTo(Phase.RUNNING);

        clock.advance(Duration.ofSeconds(5));
        sim.reconcileOnce();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "short")).isEqualTo(Phase.COMPLETED);

        clock.advance(Duration.ofHours(1));
        sim.reconcileOnce();
        assertThat(member.phase(Member.LWS, "infer", "serve")).isEqualTo(Phase.RUNNING);
        assertThat(member.podsOf("infer", "serve"))
                .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running"));
    }

    @Test
    void startedSimulatorPicksUpCrdsInstalledLaterAndSkipsBadObjects() throws InterruptedException {
        member.apply(Member.PYTORCHJOBS, """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: broken
                  namespace: ml
                  labels:
                    app.kubernetes.io/managed-by: cartograph-agent
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: lots
                """);
        member.apply(
                Member.PYTORCHJOBS, TRAIN.replace("name: train", "name: later").replace("replicas: 3", "replicas: 0"));
        MemberSimulator running = MemberSimulators.start(
                client,
                Catalog.load().definitions(),
                SimulatorSettings.defaults().withReconcileInterval(Duration.ofMillis(50)));
        try {
            waitFor(() -> member.podsOf("ml", "later").size() == 1
                    && member.phase(Member.PYTORCHJOBS, "ml", "later") == Phase.RUNNING);
            var mpijobs = Member.context("kubeflow.org", "v2beta1", "MPIJob", "mpijobs");
            member.installCrd(mpijobs);
            // launcher 1 + worker 1: 2 pods
            member.apply(mpijobs, """
                    apiVersion: kubeflow.org/v2beta1
                    kind: MPIJob
                    metadata:
                      name: allreduce
                      namespace: ml
                      labels:
                        app.kubernetes.io/managed-by: cartograph-agent
                    spec:
                      mpiReplicaSpecs:
                        Launcher:
                          replicas: 1
                          template:
                            spec:
                              containers:
                              - name: launcher
                                image: mpi
                        Worker:
                          replicas: 1
                          template:
                            spec:
                              containers:
                              - name: worker
                                image: mpi
                                resources:
                                  limits:
                                    nvidia.com/gpu: 4
                    """);
            waitFor(() -> member.podsOf("ml", "allreduce").size() == 2
                    && member.phase(mpijobs, "ml", "allreduce") == Phase.RUNNING);
        } finally {
            running.close();
        }
        assertThat(member.podsOf("ml", "broken")).isEmpty();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 20 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
