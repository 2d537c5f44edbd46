package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.testing.Eventually;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gang's whole life on the local fleet (issue 15), default profile (free GPUs per node, by hand: gpu-east H100
 * 8,8,6,0; gpu-west A100 8,8,8,8,4,4,2,0; gpu-edge L40S 4,3): a PyTorchJob that mounts a ConfigMap and reads a Secret
 * runs on its member with both there, follows the ConfigMap's change, keeps its spec when a scale-up does not fit,
 * gives its GPUs to a waiting gang when suspended and is placed again when resumed.
 */
@Timeout(300)
class LifecycleIT {
    static final String TRAIN = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata: {name: llama-deps, namespace: ml}
            spec:
              runPolicy: {suspend: %s}
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  template:
                    spec:
                      nodeSelector: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
                      volumes: [{name: settings, configMap: {name: llama-settings}}]
                      containers:
                        - name: pytorch
                          image: ghcr.io/example/llama-finetune:1.0
                          resources: {limits: {nvidia.com/gpu: "8"}}
                          volumeMounts: [{name: settings, mountPath: /etc/llama}]
                          env:
                            - {name: HF_TOKEN, valueFrom: {secretKeyRef: {name: hf-token, key: token}}}
                Worker:
                  replicas: %d
                  template:
                    spec:
                      nodeSelector: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
                      volumes: [{name: settings, configMap: {name: llama-settings}}]
                      containers:
                        - name: pytorch
                          image: ghcr.io/example/llama-finetune:1.0
                          resources: {limits: {nvidia.com/gpu: "8"}}
                          volumeMounts: [{name: settings, mountPath: /etc/llama}]
            """;

    @TempDir
    java.nio.file.Path dir;

    static GenericKubernetesResource train(LocalFleet fleet, boolean suspend, int workers) {
        return fleet.hub()
                .client()
                .getKubernetesSerialization()
                .unmarshal(TRAIN.formatted(suspend, workers), GenericKubernetesResource.class);
    }

    static GenericKubernetesResource onHub(LocalFleet fleet, String name) {
        return fleet.hub()
                .client()
                .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                .inNamespace("ml")
                .withName(name)
                .get();
    }

    static Map<String, String> labels(LocalFleet fleet, String name) {
        GenericKubernetesResource r = onHub(fleet, name);
        return r == null || r.getMetadata().getLabels() == null
                ? Map.of()
                : r.getMetadata().getLabels();
    }

    static String reason(LocalFleet fleet, String name) {
        GenericKubernetesResource r = onHub(fleet, name);
        return r == null || r.getMetadata().getAnnotations() == null
                ? ""
                : r.getMetadata().getAnnotations().getOrDefault("cartograph.dev/reason", "");
    }

    static Optional<GenericKubernetesResource> copy(LocalFleet fleet, String cluster, String name) {
        return Optional.ofNullable(fleet.member(cluster)
                .client()
                .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                .inNamespace("ml")
                .withName(name)
                .get());
    }

    static long runningPods(LocalFleet fleet, String cluster, String job) {
        return fleet.member(cluster).client().pods().inNamespace("ml").list().getItems().stream()
                .filter(p -> p.getMetadata().getName().startsWith(job + "-"))
                .filter(p -> "Running"
                        .equals(p.getStatus() == null ? null : p.getStatus().getPhase()))
                .count();
    }

    static void update(LocalFleet fleet, GenericKubernetesResource wanted) {
        GenericKubernetesResource now = onHub(fleet, wanted.getMetadata().getName());
        now.setAdditionalProperty("spec", wanted.getAdditionalProperties().get("spec"));
        fleet.hub().client().resource(now).update();
    }

    @Test
    void aPyTorchJobRunsWithItsConfigMapAndSecretFollowsThemKeepsItsSpecWhenAScaleUpDoesNotFitAndSuspendsAndResumes()
            throws Exception {
        FleetOptions options = FleetOptions.defaults(dir).withPorts(0, 0, 0).withBatchRunTime(Duration.ofHours(1));
        try (LocalFleet fleet = LocalFleet.start(options)) {
            KubernetesClient hub = fleet.hub().client();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            hub.configMaps()
                    .inNamespace("ml")
                    .resource(new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("llama-settings")
                            .endMetadata()
                            .addToData("lr", "0.0001")
                            .build())
                    .create();

            // the Secret is not on the hub yet: the gang waits, saying which and where
            hub.genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                    .inNamespace("ml")
                    .resource(train(fleet, false, 1))
                    .create();
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> reason(fleet, "llama-deps").contains("Secret ml/hf-token"),
                    () -> "waits for the Secret: " + reason(fleet, "llama-deps"));
            assertThat(copy(fleet, "gpu-east", "llama-deps")).isEmpty();

            hub.secrets()
                    .inNamespace("ml")
                    .resource(new SecretBuilder()
                            .withNewMetadata()
                            .withName("hf-token")
                            .endMetadata()
                            .addToData( // as kubectl create secret --from-literal sends it
                                    "token",
                                    java.util.Base64.getEncoder()
                                            .encodeToString("hf_example_token"
                                                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                            .build())
                    .create();
            // 2 x 8 H100: only gpu-east, on its two whole free nodes
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "gpu-east".equals(labels(fleet, "llama-deps").get("cartograph.dev/cluster"))
                            && "Running".equals(labels(fleet, "llama-deps").get("cartograph.dev/phase")),
                    () -> "llama-deps running on gpu-east: " + labels(fleet, "llama-deps"));
            KubernetesClient east = fleet.member("gpu-east").client();
            ConfigMap settings = east.configMaps()
                    .inNamespace("ml")
                    .withName("llama-settings")
                    .get();
            Secret token = east.secrets().inNamespace("ml").withName("hf-token").get();
            assertThat(settings.getData()).containsEntry("lr", "0.0001");
            assertThat(new String(
                            java.util.Base64.getDecoder().decode(token.getData().get("token")),
                            java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo("hf_example_token");
            assertThat(runningPods(fleet, "gpu-east", "llama-deps")).isEqualTo(2);

            // the ConfigMap changes on the hub: it changes on the member
            hub.configMaps().inNamespace("ml").withName("llama-settings").edit(c -> {
                c.getData().put("lr", "0.0002");
                return c;
            });
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> "0.0002"
                            .equals(east.configMaps()
                                    .inNamespace("ml")
                                    .withName("llama-settings")
                                    .get()
                                    .getData()
                                    .get("lr")),
                    () -> "the member's ConfigMap follows the hub's");

            // 3 workers need 2 more whole H100 nodes; gpu-east has one node with 6 free: held, with the reason
            update(fleet, train(fleet, false, 3));
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> reason(fleet, "llama-deps").contains("do not fit on gpu-east"),
                    () -> "the scale-up is held: " + reason(fleet, "llama-deps"));
            assertThat(workers(copy(fleet, "gpu-east", "llama-deps").orElseThrow()))
                    .isEqualTo(1);

            // a second 2 x 8 H100 gang waits; suspending llama-deps gives it gpu-east's two whole nodes
            LocalFleetIT.submit(fleet, "waits-for-h100.yaml");
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> "Queued".equals(labels(fleet, "eval-h100").get("cartograph.dev/phase")),
                    () -> "eval-h100 queued");
            update(fleet, train(fleet, true, 1));
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "gpu-east".equals(labels(fleet, "eval-h100").get("cartograph.dev/cluster"))
                            && "Running".equals(labels(fleet, "eval-h100").get("cartograph.dev/phase")),
                    () -> "eval-h100 runs where llama-deps was: " + labels(fleet, "eval-h100"));
            assertThat(runningPods(fleet, "gpu-east", "llama-deps")).isZero();
            assertThat(copy(fleet, "gpu-east", "llama-deps")
                            .orElseThrow()
                            .getAdditionalProperties()
                            .toString())
                    .contains("suspend=true");

            // resumed while gpu-east is full: it waits, its suspended copy left on gpu-east (as a preempted gang's is),
            // running nothing there; when eval-h100 is deleted, it runs again there
            update(fleet, train(fleet, false, 1));
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "Queued".equals(labels(fleet, "llama-deps").get("cartograph.dev/phase"))
                            && reason(fleet, "llama-deps").contains("waits for capacity"),
                    () -> "llama-deps waits after resuming: " + labels(fleet, "llama-deps"));
            assertThat(copy(fleet, "gpu-east", "llama-deps")
                            .orElseThrow()
                            .getAdditionalProperties()
                            .toString())
                    .contains("suspend=true");
            assertThat(runningPods(fleet, "gpu-east", "llama-deps")).isZero();
            hub.genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                    .inNamespace("ml")
                    .withName("eval-h100")
                    .delete();
            Eventually.until(
                    Duration.ofSeconds(90),
                    () -> "gpu-east".equals(labels(fleet, "llama-deps").get("cartograph.dev/cluster"))
                            && "Running".equals(labels(fleet, "llama-deps").get("cartograph.dev/phase"))
                            && runningPods(fleet, "gpu-east", "llama-deps") == 2,
                    () -> "llama-deps placed and running again: " + labels(fleet, "llama-deps"));
        }
    }

    /**
     * By hand, for one pod of 2 GPUs under BIN_PACK (score: partly used nodes in the cluster after placing × 10⁶ + GPUs
     * left on the nodes it touched; lower wins): gpu-edge (4,3 free of 4: one partly used; the pod takes the 3 → 1
     * left) 1,000,001; gpu-east (8,8,6,0 of 8: the pod takes the 6 → 4 left, still one partly used) 1,000,004;
     * gpu-west (8,8,8,8,4,4,2,0: three partly used; the pod fills the 2 → two) 2,000,000. gpu-edge first; it refuses
     * PyTorchJobs, so the gang goes to gpu-east.
     */
    @Test
    void aClusterThatRefusesTheGangSendsItToTheNextThatFitsWithItsReasonKept() throws Exception {
        String denial = "PyTorchJobs are not allowed on this cluster";
        FleetOptions options = FleetOptions.defaults(dir)
                .withPorts(0, 0, 0)
                .withBatchRunTime(Duration.ofHours(1))
                .withAdmission("gpu-edge", dev.cartograph.mock.admission.AdmissionRule.denying("PyTorchJob", denial));
        try (LocalFleet fleet = LocalFleet.start(options)) {
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> fleet.broker().view().active()
                            && fleet.broker().view().fleet().clusters().size() == 3,
                    () -> "broker active with 3 clusters");
            fleet.hub()
                    .client()
                    .genericKubernetesResources(LocalFleetIT.PYTORCHJOBS)
                    .inNamespace("ml")
                    .resource(fleet.hub()
                            .client()
                            .getKubernetesSerialization()
                            .unmarshal("""
                                    apiVersion: kubeflow.org/v1
                                    kind: PyTorchJob
                                    metadata: {name: small, namespace: ml}
                                    spec:
                                      pytorchReplicaSpecs:
                                        Master:
                                          replicas: 1
                                          template:
                                            spec:
                                              containers:
                                                - {name: pytorch, image: ghcr.io/example/small:1.0, resources: {limits: {nvidia.com/gpu: "2"}}}
                                    """, GenericKubernetesResource.class))
                    .create();
            Eventually.until(
                    Duration.ofSeconds(60),
                    () -> "gpu-east".equals(labels(fleet, "small").get("cartograph.dev/cluster"))
                            && "Running".equals(labels(fleet, "small").get("cartograph.dev/phase")),
                    () -> "small runs on gpu-east: " + labels(fleet, "small"));
            assertThat(fleet.member("gpu-edge").admissionDenials()).isNotEmpty();
            assertThat(copy(fleet, "gpu-edge", "small")).isEmpty();
            var placement = fleet.broker().view().placements().values().stream()
                    .filter(p -> p.target().name().equals("small"))
                    .findFirst()
                    .orElseThrow();
            assertThat(placement.epoch()).isEqualTo(2);
            assertThat(placement.refusals())
                    .containsOnlyKeys("gpu-edge")
                    .hasValueSatisfying(new org.assertj.core.api.Condition<>(
                            r -> r.contains("admission webhook") && r.contains(denial), "the webhook's denial"));
        }
    }

    @SuppressWarnings("unchecked")
    static int workers(GenericKubernetesResource job) {
        Map<String, Object> spec =
                (Map<String, Object>) job.getAdditionalProperties().get("spec");
        Map<String, Object> specs = (Map<String, Object>) spec.get("pytorchReplicaSpecs");
        return ((Number) ((Map<String, Object>) specs.get("Worker")).get("replicas")).intValue();
    }
}
