package dev.cartograph.interpreter.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Expected answers are Kubernetes' rules as its API reference states them (Toleration, NodeSelectorTerm,
 * NodeSelectorRequirement) and {@code Toleration.ToleratesTaint} in k8s.io/api core/v1 implements them.
 */
@Timeout(10)
class NodeConstraintsTest {
    private static final Taint GPU = new Taint("nvidia.com/gpu", "present", Taint.NO_SCHEDULE);

    static JsonNode yaml(String text) throws Exception {
        return Documents.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                .get(0);
    }

    @Test
    void anEmptyKeyWithExistsToleratesEveryTaintAndAnEmptyEffectEveryEffect() {
        Toleration all = new Toleration("", Toleration.EXISTS, "", "");
        assertThat(all.tolerates(GPU)).isTrue();
        assertThat(all.tolerates(new Taint("other", "", Taint.NO_EXECUTE))).isTrue();
        assertThat(new Toleration("nvidia.com/gpu", Toleration.EXISTS, "", Taint.NO_EXECUTE).tolerates(GPU))
                .isFalse();
    }

    @Test
    void equalAlsoWhenTheOperatorIsLeftOutNeedsTheSameValue() {
        assertThat(new Toleration("nvidia.com/gpu", "", "present", "").tolerates(GPU))
                .isTrue();
        assertThat(new Toleration("nvidia.com/gpu", Toleration.EQUAL, "absent", "").tolerates(GPU))
                .isFalse();
        assertThat(new Toleration("nvidia.com/gpu", Toleration.EQUAL, "", "")
                        .tolerates(new Taint("nvidia.com/gpu", "", "NoSchedule")))
                .isTrue();
    }

    /** Both copies this replaces matched an unknown operator as Equal; Kubernetes matches nothing. */
    @Test
    void anUnknownOperatorToleratesNothing() {
        assertThat(new Toleration("nvidia.com/gpu", "exists", "present", "").tolerates(GPU))
                .isFalse();
    }

    @Test
    void onlyNoScheduleAndNoExecuteKeepAPodOff() {
        NodeConstraints none = NodeConstraints.NONE;
        assertThat(none.untolerated(List.of(new Taint("soft", "", Taint.PREFER_NO_SCHEDULE))))
                .isEmpty();
        assertThat(none.untolerated(List.of(GPU))).contains(GPU);
        assertThat(none.untolerated(List.of(new Taint("evict", "", Taint.NO_EXECUTE))))
                .isPresent();
    }

    @Test
    void termsAreOredTheirRequirementsAndedAndAnEmptyTermMatchesNoNode() throws Exception {
        NodeConstraints c = NodeConstraints.of(yaml("""
                affinity:
                  nodeAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms:
                      - matchExpressions:
                        - {key: gpu, operator: In, values: [h100, a100]}
                        - {key: zone, operator: NotIn, values: [west]}
                      - matchExpressions:
                        - {key: gpu-count, operator: Gt, values: ["7"]}
                """));
        assertThat(c.affinityHolds(Map.of("gpu", "h100"), "n1")).isTrue(); // NotIn holds when the label is absent
        assertThat(c.affinityHolds(Map.of("gpu", "h100", "zone", "west"), "n1")).isFalse();
        assertThat(c.affinityHolds(Map.of("gpu-count", "8"), "n1")).isTrue();
        assertThat(c.affinityHolds(Map.of("gpu-count", "7"), "n1")).isFalse();
        assertThat(c.affinityHolds(Map.of("gpu-count", "eight"), "n1")).isFalse();

        NodeConstraints empty = NodeConstraints.of(yaml("""
                affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{}]}}}
                """));
        assertThat(empty.affinityHolds(Map.of("gpu", "h100"), "n1")).isFalse();
        assertThat(NodeConstraints.NONE.affinityHolds(Map.of(), "n1")).isTrue();
    }

    @Test
    void matchFieldsSelectsTheNodeByName() throws Exception {
        NodeConstraints c = NodeConstraints.of(yaml("""
                affinity:
                  nodeAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms:
                      - matchFields: [{key: metadata.name, operator: In, values: [gpu-node-3]}]
                """));
        assertThat(c.affinityHolds(Map.of(), "gpu-node-3")).isTrue();
        assertThat(c.affinityHolds(Map.of(), "gpu-node-4")).isFalse();
    }

    @Test
    void aPodSpecGivesItsSelectorAffinityAndTolerations() throws Exception {
        NodeConstraints c = NodeConstraints.of(yaml("""
                nodeSelector: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
                tolerations:
                - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
                - {key: 7, tolerationSeconds: 30}
                containers: [{name: main, image: busybox}]
                """));
        assertThat(c.nodeSelector()).containsExactly(Map.entry("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"));
        assertThat(c.requiredTerms()).isEmpty();
        assertThat(c.tolerations())
                .containsExactly(
                        new Toleration("nvidia.com/gpu", "Exists", "", "NoSchedule"),
                        new Toleration("7", "Equal", "", ""));
        assertThat(c.admits("n", Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"), List.of(GPU)))
                .isTrue();
        assertThat(c.admits("n", Map.of("nvidia.com/gpu.product", "NVIDIA-A100"), List.of(GPU)))
                .isFalse();
    }
}
