package dev.cartograph.mock.seed;

import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.mock.fleet.NodePool;
import dev.cartograph.mock.fleet.SimulatedNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the Node and pre-existing Pod objects for simulated nodes. Pure apart from the clock; thread-safe. */
final class SeedObjects {
    static final String PREEXISTING = "preexisting";
    static final String GPU = "nvidia.com/gpu";
    static final Map<String, String> MANAGED = Map.of("app.kubernetes.io/managed-by", "cartograph-mock");
    /** CPU and memory a pre-existing pod requests per GPU it holds. */
    private static final int CPU_PER_GPU = 4;

    private static final int MEMORY_GI_PER_GPU = 32;

    private final Clock clock;

    SeedObjects(Clock clock) {
        this.clock = clock;
    }

    Node node(SimulatedNode n) {
        NodePool pool = n.pool();
        Map<String, String> labels = new LinkedHashMap<>(pool.labels());
        labels.put("kubernetes.io/hostname", n.name());
        pool.gpuProduct().ifPresent(product -> {
            labels.put("nvidia.com/gpu.product", product);
            labels.put("nvidia.com/gpu.count", Integer.toString(pool.gpus()));
        });
        Map<String, Quantity> resources = nodeResources(pool);
        String now = now();
        return new NodeBuilder()
                .withNewMetadata()
                .withName(n.name())
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withTaints(pool.taints().stream().map(SeedObjects::taint).toList())
                .endSpec()
                .withNewStatus()
                .withCapacity(resources)
                .withAllocatable(resources)
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("kubelet is posting ready status (simulated)")
                .withLastHeartbeatTime(now)
                .withLastTransitionTime(now)
                .endCondition()
                .withNewNodeInfo()
                .withKubeletVersion("v1.32.0-cartograph-mock")
                .withOperatingSystem("linux")
                .withArchitecture("amd64")
                .withContainerRuntimeVersion("containerd://simulated")
                .endNodeInfo()
                .endStatus()
                .build();
    }

    Pod preexistingPod(SimulatedNode n) {
        Map<String, Quantity> requests = Map.of(
                GPU,
                new Quantity(Integer.toString(n.usedGpus())),
                "cpu",
                new Quantity(Integer.toString(CPU_PER_GPU * n.usedGpus())),
                "memory",
                new Quantity(MEMORY_GI_PER_GPU * n.usedGpus() + "Gi"));
        Map<String, String> labels = new LinkedHashMap<>(MANAGED);
        labels.put("cartograph.dev/preexisting", "true");
        String now = now();
        return new PodBuilder()
                .withNewMetadata()
                .withName(PREEXISTING + "-" + n.name())
                .withNamespace(PREEXISTING)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNodeName(n.name())
                .withRestartPolicy("Always")
                .withTolerations(n.pool().taints().stream()
                        .map(t -> new TolerationBuilder()
                                .withKey(t.key())
                                .withOperator("Exists")
                                .withEffect(t.effect())
                                .build())
                        .toList())
                .addNewContainer()
                .withName("workload")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .withRequests(requests)
                .withLimits(Map.of(GPU, requests.get(GPU)))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .withStartTime(now)
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime(now)
                .endCondition()
                .addNewContainerStatus()
                .withName("workload")
                .withImage("registry.k8s.io/pause:3.10")
                .withReady(true)
                .withStarted(true)
                .withRestartCount(0)
                .withNewState()
                .withNewRunning()
                .withStartedAt(now)
                .endRunning()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();
    }

    private static Map<String, Quantity> nodeResources(NodePool pool) {
        Map<String, Quantity> resources = new LinkedHashMap<>();
        resources.put("cpu", new Quantity(pool.cpu()));
        resources.put("memory", new Quantity(pool.memory()));
        resources.put("pods", new Quantity(Integer.toString(pool.pods())));
        if (pool.gpus() > 0) {
            resources.put(GPU, new Quantity(Integer.toString(pool.gpus())));
        }
        return resources;
    }

    private static io.fabric8.kubernetes.api.model.Taint taint(Taint t) {
        return new io.fabric8.kubernetes.api.model.Taint(
                t.effect(), t.key(), null, t.value().isEmpty() ? null : t.value());
    }

    private String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
