package dev.cartograph.fairshare;

import static dev.cartograph.fairshare.Queues.read;
import static dev.cartograph.fairshare.Queues.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Queue objects read field by field; each bad one refused alone with the field and why. */
class QueueSpecsTest {
    static final String H100 = "NVIDIA-H100-80GB-HBM3";

    @Test
    void everyFieldIsRead() {
        QueueSpec q = spec("""
                apiVersion: cartograph.dev/v1alpha1
                kind: Queue
                metadata: {name: team-a}
                spec:
                  namespaces: [team-a, team-a-dev]
                  parent: research
                  weight: 2.5
                  quota: {gpus: {NVIDIA-H100-80GB-HBM3: 16, NVIDIA-A100-SXM4-80GB: "8"}}
                  borrowingLimit: {gpus: {NVIDIA-H100-80GB-HBM3: 4}}
                  preemption: LowerPriority
                """);
        assertThat(q.name()).isEqualTo("team-a");
        assertThat(q.namespaces()).containsExactly("team-a", "team-a-dev");
        assertThat(q.selector()).isEmpty();
        assertThat(q.parent()).contains("research");
        assertThat(q.weight()).isEqualTo(2.5);
        assertThat(q.nominal()).isEqualTo(Map.of(H100, 16L, "NVIDIA-A100-SXM4-80GB", 8L));
        assertThat(q.ceiling(H100)).isEqualTo(20);
        assertThat(q.ceiling("NVIDIA-A100-SXM4-80GB")).isEqualTo(Long.MAX_VALUE); // no limit named
        assertThat(q.nominal("NVIDIA-L40S")).isZero();
        assertThat(q.preemption()).isEqualTo(QueueSpec.Preemption.LOWER_PRIORITY);
    }

    @Test
    void defaultsAreWeightOneNoParentNoQuotaAndReclaimOnly() {
        QueueSpec q = spec("""
                metadata: {name: team-b}
                spec: {namespaceSelector: {matchLabels: {team: b}}}
                """);
        assertThat(q.selector()).isEqualTo(Map.of("team", "b"));
        assertThat(q.parent()).isEqualTo(Optional.empty());
        assertThat(q.weight()).isEqualTo(1);
        assertThat(q.nominal()).isEmpty();
        assertThat(q.borrowingLimit()).isEmpty();
        assertThat(q.preemption()).isEqualTo(QueueSpec.Preemption.RECLAIM_ONLY);
    }

    @Test
    void eachBadFieldIsNamedWithWhy() {
        Map<String, String> cases = Map.of(
                "metadata: {name: Team_A}\nspec: {namespaces: [a]}",
                "metadata.name: must be a DNS label (lower case, digits, '-'), not \"Team_A\"",
                "metadata: {name: a}",
                "spec: missing: a Queue needs spec.namespaces or spec.namespaceSelector",
                "metadata: {name: a}\nspec: {namespaces: [ok, 7]}",
                "spec.namespaces[1]: not a namespace name: 7",
                "metadata: {name: a}\nspec: {namespaces: [x], namespaceSelector: {matchLabels: {t: a}}}",
                "spec.namespaceSelector: give spec.namespaces or spec.namespaceSelector, not both",
                "metadata: {name: a}\nspec: {namespaces: [x], weight: -1}",
                "spec.weight: must be a number greater than 0, not -1",
                "metadata: {name: a}\nspec: {namespaces: [x], quota: {gpus: {H100: 1.5}}}",
                "spec.quota.gpus.H100: must be a whole number of GPUs, 0 or more, not 1.5",
                "metadata: {name: a}\nspec: {namespaces: [x], quota: {cpu: '64'}}",
                "spec.quota.cpu: not supported: quota is counted in GPUs per model (gpus)",
                "metadata: {name: a}\nspec: {namespaces: [x], borrowingLimit: {gpus: {H100: -2}}}",
                "spec.borrowingLimit.gpus.H100: must be a whole number of GPUs, 0 or more, not -2",
                "metadata: {name: a}\nspec: {namespaces: [x], preemption: Always}",
                "spec.preemption: must be Never, ReclaimOnly or LowerPriority, not \"Always\"",
                "metadata: {name: a}\nspec: {namespaces: [x], parent: a}",
                "spec.parent: a queue cannot be its own parent");
        cases.forEach((yaml, message) -> assertThat(read(yaml))
                .as(yaml)
                .isInstanceOfSatisfying(
                        QueueSpecs.Invalid.class, i -> assertThat(i.message()).isEqualTo(message)));
    }

    @Test
    void aQueueWithoutNamespacesIsValidAsAParent() {
        assertThat(spec("metadata: {name: research}\nspec: {quota: {gpus: {H100: 32}}}")
                        .namespaces())
                .isEqualTo(List.of());
    }
}
