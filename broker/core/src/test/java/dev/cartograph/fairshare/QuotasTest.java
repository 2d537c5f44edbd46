package dev.cartograph.fairshare;

import static dev.cartograph.fairshare.Queues.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cartograph.placement.GpuBudget;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Nominal, in use, budgets and shares counted by hand. Fleet: 32 H100, 16 A100. research (a parent: own quota 8 H100,
 * borrowing limit 8) has team-a (8 H100 nominal, borrowing limit 4, weight 2) and team-b (no quota); team-c is
 * top-level with 8 A100. In use: team-a 10 H100, team-b 6 H100, team-c 12 A100.
 */
class QuotasTest {
    static final String H100 = "H100";
    static final String A100 = "A100";

    static final QueueTree TREE = tree(
            "metadata: {name: research}\nspec: {quota: {gpus: {H100: 8}}, borrowingLimit: {gpus: {H100: 8}}}",
            "metadata: {name: team-a}\nspec: {namespaces: [a], parent: research, weight: 2,"
                    + " quota: {gpus: {H100: 8}}, borrowingLimit: {gpus: {H100: 4}}}",
            "metadata: {name: team-b}\nspec: {namespaces: [b], parent: research}",
            "metadata: {name: team-c}\nspec: {namespaces: [c], quota: {gpus: {A100: 8}}}");
    static final Quotas QUOTAS = new Quotas(
            TREE,
            Map.of("team-a", Map.of(H100, 10L), "team-b", Map.of(H100, 6L), "team-c", Map.of(A100, 12L)),
            Map.of(H100, 32L, A100, 16L));

    @Test
    void aParentIsPromisedItsOwnQuotaPlusItsChildrensAndUsesTheirs() {
        assertThat(QUOTAS.nominal("research", H100)).isEqualTo(16); // 8 + 8 + 0
        assertThat(QUOTAS.inUse("research", H100)).isEqualTo(16); // 10 + 6
        assertThat(QUOTAS.ceiling("research", H100)).isEqualTo(24); // 16 + 8
        assertThat(QUOTAS.borrowed("research", H100)).isZero();
        assertThat(QUOTAS.borrowed("team-a", H100)).isEqualTo(2);
        assertThat(QUOTAS.ceiling("team-a", H100)).isEqualTo(12);
        assertThat(QUOTAS.ceiling("team-b", H100)).isEqualTo(Long.MAX_VALUE);
        assertThat(QUOTAS.borrowed("team-c", A100)).isEqualTo(4);
    }

    @Test
    void aBudgetIsTheTightestCeilingOnTheQueuesPath() {
        // team-a: its own 12 − 10 = 2 binds before research's 24 − 16 = 8
        assertThat(QUOTAS.budget("team-a"))
                .isEqualTo(new GpuBudget(Map.of(
                        H100, new GpuBudget.Limit(2, "queue team-a: nominal 8 + borrowing limit 4 − 10 in use"))));
        // team-b has no limit of its own: research's binds
        assertThat(QUOTAS.budget("team-b"))
                .isEqualTo(new GpuBudget(Map.of(
                        H100,
                        new GpuBudget.Limit(8, "parent queue research: nominal 16 + borrowing limit 8 − 16 in use"))));
        // team-c: no borrowing limit anywhere on its path
        assertThat(QUOTAS.budget("team-c").unlimited()).isTrue();
    }

    @Test
    void sharesAreWhatIsBorrowedOverWhatTheParentCouldLendOverTheWeight() {
        // team-a: 2 borrowed / min(32 fleet, 24 research's ceiling) / weight 2
        assertThat(QUOTAS.share("team-a").value()).isCloseTo(2.0 / 24 / 2, within(1e-12));
        assertThat(QUOTAS.share("team-a").dominantModel()).isEqualTo(H100);
        assertThat(QUOTAS.share("team-b").value()).isCloseTo(6.0 / 24, within(1e-12));
        assertThat(QUOTAS.share("team-c").value()).isCloseTo(4.0 / 16, within(1e-12));
        assertThat(QUOTAS.share("team-c").dominantModel()).isEqualTo(A100);
        assertThat(QUOTAS.share("research").value()).isZero(); // within its 16 nominal
        assertThat(QUOTAS.share("default").value()).isZero();
    }

    @Test
    void theDominantModelIsTheOneBorrowedMostOfWhatCouldBeLent() {
        QueueTree t = tree("metadata: {name: q}\nspec: {namespaces: [q]}");
        Quotas quotas = new Quotas(t, Map.of("q", Map.of(H100, 8L, A100, 8L)), Map.of(H100, 32L, A100, 16L));
        assertThat(quotas.share("q").dominantModel()).isEqualTo(A100); // 8/16 > 8/32
        assertThat(quotas.share("q").value()).isEqualTo(0.5);
    }

    @Test
    void theNextQueueIsTheLowestShareFromTheTopDown() {
        Instant t0 = Instant.parse("2026-12-04T00:00:00Z");
        Map<String, FairOrder.Head> heads = Map.of(
                "team-a", new FairOrder.Head(0, t0.plusSeconds(10)),
                "team-b", new FairOrder.Head(0, t0.plusSeconds(5)),
                "team-c", new FairOrder.Head(0, t0.plusSeconds(1)));
        // roots: research 0 < team-c 0.25; under research: team-a 1/24 < team-b 1/4
        assertThat(FairOrder.next(TREE, QUOTAS, heads)).contains("team-a");
        assertThat(FairOrder.next(TREE, QUOTAS, Map.of("team-b", heads.get("team-b"), "team-c", heads.get("team-c"))))
                .contains("team-b");
        assertThat(FairOrder.next(TREE, QUOTAS, Map.of("team-c", heads.get("team-c"))))
                .contains("team-c");
        assertThat(FairOrder.next(TREE, QUOTAS, Map.of())).isEmpty();
    }

    @Test
    void equalSharesGoToTheHigherPriorityHeadThenTheEarlierThenTheName() {
        QueueTree t = tree(
                "metadata: {name: x}\nspec: {namespaces: [x], weight: 2}",
                "metadata: {name: y}\nspec: {namespaces: [y]}");
        // 8/24/2 = 4/24/1 = 1/6
        Quotas equal = new Quotas(t, Map.of("x", Map.of(H100, 8L), "y", Map.of(H100, 4L)), Map.of(H100, 24L));
        assertThat(equal.share("x").value()).isEqualTo(equal.share("y").value());
        Instant t0 = Instant.parse("2026-12-04T00:00:00Z");
        assertThat(FairOrder.next(
                        t,
                        equal,
                        Map.of("x", new FairOrder.Head(0, t0), "y", new FairOrder.Head(5, t0.plusSeconds(9)))))
                .contains("y");
        assertThat(FairOrder.next(
                        t,
                        equal,
                        Map.of("x", new FairOrder.Head(0, t0.plusSeconds(1)), "y", new FairOrder.Head(0, t0))))
                .contains("y");
        assertThat(FairOrder.next(t, equal, Map.of("x", new FairOrder.Head(0, t0), "y", new FairOrder.Head(0, t0))))
                .contains("x");
        // x takes 2 more: 10/48 > 4/24
        Quotas more = new Quotas(t, Map.of("x", Map.of(H100, 10L), "y", Map.of(H100, 4L)), Map.of(H100, 24L));
        assertThat(FairOrder.next(t, more, Map.of("x", new FairOrder.Head(9, t0), "y", new FairOrder.Head(0, t0))))
                .contains("y");
    }
}
