package dev.cartograph.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.simulator.kube.MemberSimulators;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A workload's life beyond run-and-finish on a simulated member: suspended and resumed; waiting for its ConfigMap. */
@EnableKubernetesMockClient(crud = true)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadLifecycleIT {
    private static final ResourceDefinitionContext JOBS = Member.context("batch", "v1", "Job", "jobs");

    KubernetesClient client;

    private Member member;
    private MemberSimulator sim;

    // master 1 + workers 3, 4 GPUs each: 4 pods, 16 GPUs (both 8-GPU nodes full)
    private static final String TRAIN = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: train
              namespace: ml
              labels:
                app.kubernetes.io/managed-by: cartograph-agent
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template:
                    spec:
                      containers:
                      - name: pytorch
                        image: pytorch
                        resources:
                          limits:
                            nvidia.com/gpu: 4
                Worker:
                  replicas: 3
                  template:
                    spec:
                      containers:
                      - name: pytorch
                        image: pytorch
                        resources:
                          limits:
                            nvidia.com/gpu: 4
            """;

    // one pod, 1 GPU, its configuration from ConfigMap train-config (a volume) and its token from Secret hf-token (env)
    private static final String CONFIGURED = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: tune
              namespace: ml
              labels:
                app.kubernetes.io/managed-by: cartograph-agent
            spec:
              template:
                spec:
                  restartPolicy: Never
                  volumes:
                  - name: config
                    configMap: {name: train-config}
                  containers:
                  - name: tune
                    image: pytorch
                    envFrom:
                    - secretRef: {name: hf-token}
                    resources:
                      limits:
                        nvidia.com/gpu: 1
            """;

    @BeforeEach
    void setUp() {
        member = new Member(client);
        member.installCrds();
        member.addGpuNode("gpu-a");
        member.addGpuNode("gpu-b");
        sim = MemberSimulators.create(
                client,
                Catalog.load().definitions(),
                SimulatorSettings.defaults()
                        .withCluster("member-1")
                        .withClock(new MutableClock(Instant.parse("2026-05-01T10:00:00Z")))
                        .withBatchRunTime(Duration.ofSeconds(30)));
    }

    @Test
    void suspendingDeletesThePodsFreesTheGpusAndReadsSuspendedThenResumingRunsItAgain() {
        member.apply(Member.PYTORCHJOBS, TRAIN);
        sim.reconcileOnce();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.RUNNING);
        assertThat(member.gpusPerNode()).containsEntry("gpu-a", 8).containsEntry("gpu-b", 8);

        setSuspend(Member.PYTORCHJOBS, "train", Map.of("runPolicy", Map.of("suspend", true)));
        sim.reconcileOnce();

        assertThat(member.podsOf("ml", "train")).isEmpty();
        assertThat(member.gpusPerNode()).isEmpty();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.SUSPENDED);
        assertThat(conditions(Member.PYTORCHJOBS, "train")).contains("Suspended=True");

        sim.reconcileOnce(); // stays suspended: no pods come back
        assertThat(member.podsOf("ml", "train")).isEmpty();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.SUSPENDED);

        setSuspend(Member.PYTORCHJOBS, "train", Map.of("runPolicy", Map.of("suspend", false)));
        sim.reconcileOnce(); // pods recreated and bound; the status says resumed (Initializing)
        assertThat(member.podsOf("ml", "train"))
                .hasSize(4)
                .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running"));
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.INITIALIZING);
        assertThat(conditions(Member.PYTORCHJOBS, "train")).contains("Suspended=False");

        sim.reconcileOnce();
        assertThat(member.phase(Member.PYTORCHJOBS, "ml", "train")).isEqualTo(Phase.RUNNING);
        assertThat(member.gpusPerNode()).containsEntry("gpu-a", 8).containsEntry("gpu-b", 8);
    }

    @Test
    void aJobCreatedSuspendedGetsNoPodsAndReadsSuspended() {
        member.apply(JOBS, CONFIGURED.replace("spec:\n  template:", "spec:\n  suspend: true\n  template:"));
        client.configMaps()
                .inNamespace("ml")
                .resource(configMap("train-config"))
                .create();

        sim.reconcileOnce();

        assertThat(member.podsOf("ml", "tune")).isEmpty();
        assertThat(member.phase(JOBS, "ml", "tune")).isEqualTo(Phase.SUSPENDED);
        assertThat(conditions(JOBS, "tune")).containsExactly("Suspended=True");
    }

    @Test
    void aPodWaitsOnItsNodeWhileItsConfigMapOrSecretIsMissingThenRuns() {
        member.apply(JOBS, CONFIGURED);

        sim.reconcileOnce();

        Pod pod = onlyPod("tune");
        assertThat(pod.getSpec().getNodeName()).isIn("gpu-a", "gpu-b"); // scheduled: it holds its GPU
        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(c -> {
            assertThat(c.getState().getWaiting().getReason()).isEqualTo("ContainerCreating");
            assertThat(c.getState().getWaiting().getMessage())
                    .isEqualTo("MountVolume.SetUp failed for volume \"config\" : configmap \"train-config\" not found");
        });
        assertThat(member.gpusPerNode().values()).containsExactly(1);
        assertThat(member.phase(JOBS, "ml", "tune")).isNotEqualTo(Phase.RUNNING);

        client.configMaps()
                .inNamespace("ml")
                .resource(configMap("train-config"))
                .create();
        sim.reconcileOnce();

        assertThat(onlyPod("tune").getStatus().getPhase()).isEqualTo("Pending");
        assertThat(onlyPod("tune").getStatus().getContainerStatuses())
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.getState().getWaiting().getReason()).isEqualTo("CreateContainerConfigError");
                    assertThat(c.getState().getWaiting().getMessage()).isEqualTo("secret \"hf-token\" not found");
                });

        client.secrets()
                .inNamespace("ml")
                .resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                        .withNewMetadata()
                        .withName("hf-token")
                        .withNamespace("ml")
                        .endMetadata()
                        .addToStringData("HF_TOKEN", "t")
                        .build())
                .create();
        sim.reconcileOnce();

        assertThat(onlyPod("tune").getStatus().getPhase()).isEqualTo("Running");
        assertThat(onlyPod("tune").getStatus().getContainerStatuses())
                .singleElement()
                .satisfies(c -> assertThat(c.getState().getRunning()).isNotNull());
        sim.reconcileOnce();
        assertThat(member.phase(JOBS, "ml", "tune")).isEqualTo(Phase.RUNNING);
    }

    private Pod onlyPod(String workload) {
        List<Pod> pods = member.podsOf("ml", workload);
        assertThat(pods).hasSize(1);
        return pods.get(0);
    }

    private static io.fabric8.kubernetes.api.model.ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .endMetadata()
                .addToData("config.yaml", "lr: 0.1")
                .build();
    }

    /** What a suspend or resume action writes: {@code spec} merged with {@code change}, nothing else. */
    @SuppressWarnings("unchecked")
    private void setSuspend(ResourceDefinitionContext kind, String name, Map<String, Object> change) {
        GenericKubernetesResource current = client.genericKubernetesResources(kind)
                .inNamespace("ml")
                .withName(name)
                .get();
        Map<String, Object> spec =
                (Map<String, Object>) current.getAdditionalProperties().get("spec");
        change.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m && spec.get(k) instanceof Map<?, ?> existing) {
                ((Map<String, Object>) existing).putAll((Map<String, Object>) m);
            } else {
                spec.put(k, v);
            }
        });
        client.genericKubernetesResources(kind)
                .inNamespace("ml")
                .resource(current)
                .update();
    }

    /** The status conditions as {@code Type=Status}. */
    @SuppressWarnings("unchecked")
    private List<String> conditions(ResourceDefinitionContext kind, String name) {
        Map<String, Object> status = (Map<String, Object>) client.genericKubernetesResources(kind)
                .inNamespace("ml")
                .withName(name)
                .get()
                .getAdditionalProperties()
                .get("status");
        return ((List<Map<String, Object>>) status.get("conditions"))
                .stream().map(c -> c.get("type") + "=" + c.get("status")).toList();
    }
}
