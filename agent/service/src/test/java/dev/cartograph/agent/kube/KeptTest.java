package dev.cartograph.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.agent.capacity.NodeCapacity;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.interpreter.testing.SharedData;
import dev.cartograph.protocol.NodeState;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the informer caches keep ({@link Kept}): every field a reader uses, and for nodes nothing else. */
@Timeout(30)
class KeptTest {
    /**
     * Two nodes as a real API server returns them (kubelet's annotations, managedFields, image list, nodeInfo,
     * condition messages), so that every field NodeCapacity reads has a value that matters: labels, a taint, one
     * node not Ready and cordoned, allocatable differing from capacity.
     */
    static final String NODES = """
            apiVersion: v1
            kind: Node
            metadata:
              name: gpu-a
              uid: 0d6b7c1e-0000-4000-8000-000000000001
              resourceVersion: "4711"
              creationTimestamp: "2026-11-02T08:00:00Z"
              labels: {kubernetes.io/hostname: gpu-a, nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, topology.kubernetes.io/zone: a}
              annotations: {node.alpha.kubernetes.io/ttl: "0", volumes.kubernetes.io/controller-managed-attach-detach: "true"}
              managedFields:
              - {apiVersion: v1, fieldsType: FieldsV1, manager: kubelet, operation: Update, time: "2026-11-02T08:00:00Z",
                 fieldsV1: {"f:status": {"f:allocatable": {}, "f:capacity": {}, "f:images": {}}}}
            spec:
              podCIDR: 10.244.1.0/24
              providerID: kind://docker/kind/gpu-a
              taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
            status:
              addresses: [{type: InternalIP, address: 172.18.0.3}, {type: Hostname, address: gpu-a}]
              allocatable: {cpu: 190500m, memory: 2040Gi, nvidia.com/gpu: "8", pods: "110", ephemeral-storage: 900Gi}
              capacity: {cpu: "192", memory: 2048Gi, nvidia.com/gpu: "8", pods: "110", ephemeral-storage: 1Ti}
              conditions:
              - {type: MemoryPressure, status: "False", reason: KubeletHasSufficientMemory, message: kubelet has sufficient memory available,
                 lastHeartbeatTime: "2026-12-03T10:00:00Z", lastTransitionTime: "2026-11-02T08:00:00Z"}
              - {type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status,
                 lastHeartbeatTime: "2026-12-03T10:00:00Z", lastTransitionTime: "2026-11-02T08:00:10Z"}
              daemonEndpoints: {kubeletEndpoint: {Port: 10250}}
              images:
              - {names: ["nvcr.io/nvidia/pytorch@sha256:aaaa", "nvcr.io/nvidia/pytorch:24.05-py3"], sizeBytes: 9876543210}
              - {names: ["registry.k8s.io/pause:3.10"], sizeBytes: 320368}
              nodeInfo: {architecture: amd64, kubeletVersion: v1.34.0, osImage: Ubuntu 24.04, containerRuntimeVersion: "containerd://2.1.0"}
            ---
            apiVersion: v1
            kind: Node
            metadata:
              name: cpu-b
              resourceVersion: "4712"
              labels: {kubernetes.io/hostname: cpu-b}
            spec: {unschedulable: true}
            status:
              allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
              conditions: [{type: Ready, status: "False", reason: KubeletNotReady, message: container runtime is down}]
            """;

    static final String PODS = """
            apiVersion: v1
            kind: Pod
            metadata: {name: w-0, namespace: ml}
            spec: {nodeName: gpu-a, containers: [{name: c, resources: {requests: {cpu: "8", nvidia.com/gpu: "4"}}}]}
            status: {phase: Running}
            """;

    /** A Job and its pod, as Owners finds them (uid, controller owner reference). */
    static final String OWNED = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: train
              namespace: ml
              uid: job-uid
              labels: {cartograph.dev/placement-id: p-1, app.kubernetes.io/managed-by: cartograph-agent}
              annotations: {cartograph.dev/epoch: '3'}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: train-0
              namespace: ml
              uid: pod-uid
              ownerReferences: [{apiVersion: batch/v1, kind: Job, name: train, uid: job-uid, controller: true}]
            spec: {nodeName: karta-e2e-worker, containers: [{name: c, resources: {limits: {nvidia.com/gpu: "2"}}}]}
            status: {phase: Running}
            """;

    static List<JsonNode> yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    static List<JsonNode> kept(List<JsonNode> nodes) {
        return nodes.stream()
                .map(n -> (JsonNode) Kept.node(((ObjectNode) n).deepCopy()))
                .toList();
    }

    @Test
    void aNodeKeepsEveryFieldNodeCapacityReads() throws Exception {
        List<JsonNode> full = yaml(NODES);
        List<JsonNode> pods = yaml(PODS);

        List<NodeState> fromKept = NodeCapacity.of(kept(full), pods);

        assertThat(fromKept).isEqualTo(NodeCapacity.of(full, pods));
        // by hand, from the YAML above: each field NodeCapacity reads is there and matters
        NodeState gpu = fromKept.get(0);
        assertThat(gpu.name()).isEqualTo("gpu-a");
        assertThat(gpu.labels())
                .containsEntry("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")
                .hasSize(3);
        assertThat(gpu.taints()).containsExactly(new Taint("nvidia.com/gpu", "present", "NoSchedule"));
        assertThat(gpu.ready()).isTrue();
        assertThat(gpu.schedulable()).isTrue();
        assertThat(gpu.allocatable().amounts())
                .containsEntry("cpu", new BigDecimal("190.5"))
                .containsEntry("nvidia.com/gpu", new BigDecimal("8"));
        assertThat(gpu.allocated().amounts()).containsEntry("nvidia.com/gpu", new BigDecimal("4"));
        NodeState cpu = fromKept.get(1);
        assertThat(cpu.ready()).isFalse();
        assertThat(cpu.schedulable()).isFalse();
        assertThat(cpu.allocated()).isEqualTo(ResourceList.EMPTY);
    }

    @Test
    void aNodeKeepsNothingElse() throws Exception {
        JsonNode kept = kept(yaml(NODES)).get(0);

        assertThat(kept.path("metadata").fieldNames())
                .toIterable()
                .containsExactly("name", "resourceVersion", "labels");
        assertThat(kept.path("spec").fieldNames()).toIterable().containsExactly("taints");
        assertThat(kept.path("status").fieldNames()).toIterable().containsExactly("allocatable", "conditions");
        assertThat(kept.path("status").path("conditions").get(1))
                .isEqualTo(
                        Documents.json().createObjectNode().put("type", "Ready").put("status", "True"));
    }

    @Test
    void aWorkloadKeepsEverythingButManagedFields() throws Exception {
        List<JsonNode> objects = recordedObjects();
        assertThat(objects).hasSizeGreaterThan(20); // pods, Jobs, Deployments... every recorded state
        objects.addAll(yaml(OWNED)); // and the marks and owner references the apply side and Owners read

        for (JsonNode original : objects) {
            ObjectNode withManagedFields = original.deepCopy();
            withManagedFields
                    .with("metadata")
                    .putArray("managedFields")
                    .addObject()
                    .put("manager", "kubectl-client-side-apply")
                    .put("operation", "Update");

            assertThat(Kept.workload(withManagedFields)).isEqualTo(original);
        }
    }

    /** Every object of every STATE event recorded in {@code ../shared/recorded}, as the API server returned it. */
    static List<JsonNode> recordedObjects() throws Exception {
        Optional<Path> recorded = SharedData.recorded();
        assumeTrue(recorded.isPresent(), SharedData.absent("recorded"));
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(recorded.get())) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !f.toString().contains("_definitions"))
                    .sorted()
                    .toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    for (JsonNode doc : Documents.read(in)) {
                        doc.path("events").forEach(e -> {
                            if (e.path("object").isObject()) {
                                out.add(e.path("object"));
                            }
                        });
                    }
                }
            }
        }
        return out;
    }
}
