package dev.cartograph.agent.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.protocol.NodeState;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class NodeCapacityTest {
    static List<JsonNode> yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void allocatedIsTheEffectiveRequestOfNonTerminalPodsBoundToTheNode() throws Exception {
        List<JsonNode> nodes = yaml("""
                apiVersion: v1
                kind: Node
                metadata: {name: gpu-1, labels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}}
                spec: {taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
                status:
                  allocatable: {cpu: "96", memory: 1000Gi, nvidia.com/gpu: "8", pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: cpu-1}
                spec: {unschedulable: true}
                status:
                  allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
                  conditions: [{type: Ready, status: "False"}]
                """);
        List<JsonNode> pods = yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: a}
                spec: {nodeName: gpu-1, containers: [{name: c, resources: {limits: {nvidia.com/gpu: "4", cpu: "8"}}}]}
                status: {phase: Running}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: b}
                spec:
                  nodeName: gpu-1
                  initContainers: [{name: i, resources: {requests: {cpu: "20"}}}]
                  containers: [{name: c, resources: {requests: {nvidia.com/gpu: "2", cpu: "1"}}}]
                status: {phase: Pending}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: done}
                spec: {nodeName: gpu-1, containers: [{name: c, resources: {limits: {nvidia.com/gpu: "2"}}}]}
                status: {phase: Succeeded}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: unbound}
                spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: "8"}}}]}
                status: {phase: Pending}
                """);
        List<NodeState> states = NodeCapacity.of(nodes, pods);
        NodeState gpu = states.get(0);
        // a: 4 GPUs, 8 CPU; b: 2 GPUs, max(20 init, 1) = 20 CPU; the Succeeded and unbound pods hold nothing
        assertThat(gpu.allocated().gpus()).isEqualTo(6);
        assertThat(gpu.allocated().cpuMillis()).isEqualTo(28_000);
        assertThat(gpu.allocated().get("pods").intValue()).isEqualTo(2);
        assertThat(gpu.free().gpus()).isEqualTo(2);
        assertThat(gpu.ready()).isTrue();
        assertThat(gpu.schedulable()).isTrue();
        assertThat(gpu.gpuProduct()).isEqualTo("NVIDIA-A100-SXM4-80GB");
        assertThat(gpu.taints())
                .singleElement()
                .satisfies(t -> assertThat(t.effect()).isEqualTo("NoSchedule"));
        NodeState cpu = states.get(1);
        assertThat(cpu.ready()).isFalse();
        assertThat(cpu.schedulable()).isFalse();
        assertThat(cpu.allocated().isEmpty()).isTrue();
    }
}
