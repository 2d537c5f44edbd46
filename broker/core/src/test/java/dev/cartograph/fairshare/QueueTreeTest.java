package dev.cartograph.fairshare;

import static dev.cartograph.fairshare.Queues.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Queues made consistent: namespaces, parents, the default queue, and a reason for each Queue left out. */
class QueueTreeTest {
    @Test
    void namespacesGoToTheQueueListingThemThenTheFirstSelectorThenDefault() {
        QueueTree t = tree(
                "metadata: {name: team-a}\nspec: {namespaces: [ml]}",
                "metadata: {name: team-b}\nspec: {namespaceSelector: {matchLabels: {team: b}}}",
                "metadata: {name: team-c}\nspec: {namespaceSelector: {matchLabels: {team: b, tier: gold}}}");
        assertThat(t.queueOf("ml", Map.of("team", "b"))).isEqualTo("team-a");
        assertThat(t.queueOf("bravo", Map.of("team", "b", "tier", "gold"))).isEqualTo("team-b"); // first by name
        assertThat(t.queueOf("other", Map.of())).isEqualTo("default");
        assertThat(t.queue("default").orElseThrow().preemption()).isEqualTo(QueueSpec.Preemption.NEVER);
        assertThat(t.problems()).isEmpty();
    }

    @Test
    void aNamespaceClaimedTwiceStaysWithTheFirstQueueByName() {
        QueueTree t = tree(
                "metadata: {name: zeta}\nspec: {namespaces: [ml, z]}",
                "metadata: {name: alpha}\nspec: {namespaces: [ml]}");
        assertThat(t.queueOf("ml", Map.of())).isEqualTo("alpha");
        assertThat(t.queueOf("z", Map.of())).isEqualTo("zeta");
        assertThat(t.problems()).isEqualTo(Map.of("zeta", List.of("spec.namespaces: ml is already in queue alpha")));
    }

    @Test
    void parentsCyclesAndMissingParentsAreReasonsAndTheirNamespacesGoToDefault() {
        QueueTree t = tree(
                "metadata: {name: research}\nspec: {quota: {gpus: {H100: 32}}}",
                "metadata: {name: team-a}\nspec: {namespaces: [a], parent: research}",
                "metadata: {name: x}\nspec: {namespaces: [x], parent: y}",
                "metadata: {name: y}\nspec: {namespaces: [y], parent: x}",
                "metadata: {name: orphan}\nspec: {namespaces: [o], parent: nobody}",
                "metadata: {name: child-of-bad}\nspec: {namespaces: [c], parent: bad}",
                "metadata: {name: bad}\nspec: {namespaces: [b], weight: 0}");
        assertThat(t.roots()).containsExactly("default", "research");
        assertThat(t.children("research")).containsExactly("team-a");
        assertThat(t.path("team-a")).extracting(QueueSpec::name).containsExactly("team-a", "research");
        assertThat(t.queueOf("a", Map.of())).isEqualTo("team-a");
        for (String ns : List.of("x", "y", "o", "c", "b")) {
            assertThat(t.queueOf(ns, Map.of())).as(ns).isEqualTo("default");
        }
        assertThat(t.problems())
                .containsEntry("x", List.of("spec.parent: cycle x → y → x"))
                .containsEntry("y", List.of("spec.parent: cycle y → x → y"))
                .containsEntry(
                        "orphan", List.of("spec.parent: no queue named nobody; its namespaces go to queue default"))
                .containsEntry(
                        "child-of-bad",
                        List.of("spec.parent: queue bad is invalid; its namespaces go to queue default"))
                .containsEntry("bad", List.of("spec.weight: must be a number greater than 0, not 0"))
                .hasSize(5);
    }

    @Test
    void aParentHoldsNoGangs() {
        QueueTree t = tree(
                "metadata: {name: research}\nspec: {namespaces: [r]}",
                "metadata: {name: team-a}\nspec: {namespaces: [a], parent: research}");
        assertThat(t.queueOf("r", Map.of())).isEqualTo("default");
        assertThat(t.problems())
                .isEqualTo(Map.of(
                        "research",
                        List.of("spec.namespaces: a queue with child queues (team-a) holds no gangs; its namespaces go"
                                + " to queue default")));
    }

    @Test
    void aQueueNamedDefaultReplacesTheImplicitOne() {
        QueueTree t = tree("metadata: {name: default}\nspec: {weight: 3, preemption: ReclaimOnly}");
        assertThat(t.queue("default").orElseThrow().weight()).isEqualTo(3);
        assertThat(t.queues()).hasSize(1);
    }
}
