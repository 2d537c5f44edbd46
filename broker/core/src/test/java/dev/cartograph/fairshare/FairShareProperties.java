package dev.cartograph.fairshare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.placement.GpuBudget;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random queues and submission streams on a fleet of one GPU model, served as ADR 0006 says: the next gang is the
 * head of the queue {@link FairOrder} picks, placed when it fits what is free and its queue's {@link GpuBudget};
 * a queue whose head does not fit is passed over until the end (nothing frees GPUs here). Capacity is counted
 * per fleet, not per node: these properties are about quota and order, not packing.
 */
class FairShareProperties {
    static final String GPU = "H100";

    /** One queue: weight, nominal, borrowing limit (-1: none), its gangs' sizes in submission order. */
    record Team(int weight, long nominal, long limit, List<Integer> gangs) {}

    record Scenario(long fleet, boolean nested, List<Team> teams) {}

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Team> team = Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.longs().between(0, 16),
                        Arbitraries.longs().between(-1, 16),
                        Arbitraries.integers().between(1, 8).list().ofMinSize(1).ofMaxSize(20))
                .as(Team::new);
        return Combinators.combine(
                        Arbitraries.longs().between(8, 64),
                        Arbitraries.of(true, false),
                        team.list().ofMinSize(2).ofMaxSize(4))
                .as(Scenario::new);
    }

    @Provide
    Arbitrary<Scenario> unquotaed() {
        Arbitrary<Team> team = Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(1, 8).list().ofMinSize(1).ofMaxSize(30))
                .as((w, gangs) -> new Team(w, 0, -1, gangs));
        return Combinators.combine(
                        Arbitraries.longs().between(8, 96),
                        team.list().ofMinSize(2).ofMaxSize(4))
                .as((fleet, teams) -> new Scenario(fleet, false, teams));
    }

    @Property(tries = 400)
    void noQueueEverHoldsMoreThanItsNominalPlusItsBorrowingLimit(@ForAll("scenarios") Scenario s) {
        Served served = serve(s, quotas -> {
            for (QueueSpec q : quotas.tree().queues()) {
                assertThat(quotas.quotas().inUse(q.name(), GPU))
                        .as("queue %s", q.name())
                        .isLessThanOrEqualTo(quotas.quotas().ceiling(q.name(), GPU));
            }
        });
        assertThat(served.placed()).isLessThanOrEqualTo(s.fleet());
    }

    /**
     * Without quotas, weighted shares of queues that still wait stay within two of the largest gang: a queue was
     * picked only while its share was the lowest among those that could still place, and after the last time it
     * was picked with another still placing it gained at most its own gang plus what fitted in less than one gang.
     */
    @Property(tries = 400)
    void backloggedQueuesGetGpusInProportionToTheirWeights(@ForAll("unquotaed") Scenario s) {
        Served served = serve(s, quotas -> {});
        int largest = s.teams().stream()
                .flatMap(t -> t.gangs().stream())
                .mapToInt(Integer::intValue)
                .max()
                .orElse(0);
        for (int i = 0; i < s.teams().size(); i++) {
            for (int j = 0; j < s.teams().size(); j++) {
                if (i == j || !served.waiting().contains(i) || !served.waiting().contains(j)) {
                    continue;
                }
                double wi = s.teams().get(i).weight();
                double wj = s.teams().get(j).weight();
                assertThat(served.usage()[i] / wi - served.usage()[j] / wj)
                        .as(
                                "team %d (weight %s, %d GPUs) against team %d (weight %s, %d GPUs)",
                                i, wi, served.usage()[i], j, wj, served.usage()[j])
                        .isLessThanOrEqualTo(2.0 * largest / wi);
            }
        }
    }

    record State(QueueTree tree, Quotas quotas) {}

    record Served(long placed, long[] usage, Set<Integer> waiting) {}

    /** Serves the scenario to the end, calling {@code check} after every placement. */
    static Served serve(Scenario s, java.util.function.Consumer<State> check) {
        List<String> yaml = new ArrayList<>();
        if (s.nested()) {
            yaml.add("metadata: {name: parent}\nspec: {borrowingLimit: {gpus: {H100: 4}}}");
        }
        List<Deque<Integer>> pending = new ArrayList<>();
        for (int i = 0; i < s.teams().size(); i++) {
            Team t = s.teams().get(i);
            yaml.add("metadata: {name: t" + i + "}\nspec: {namespaces: [ns" + i + "], weight: " + t.weight()
                    + (s.nested() && i < 2 ? ", parent: parent" : "")
                    + ", quota: {gpus: {H100: " + t.nominal() + "}}"
                    + (t.limit() >= 0 ? ", borrowingLimit: {gpus: {H100: " + t.limit() + "}}" : "") + "}");
            pending.add(new ArrayDeque<>(t.gangs()));
        }
        QueueTree tree = Queues.tree(yaml.toArray(String[]::new));
        assertThat(tree.problems()).isEmpty();
        long[] usage = new long[s.teams().size()];
        long free = s.fleet();
        Set<Integer> passed = new HashSet<>();
        Instant t0 = Instant.parse("2026-12-04T00:00:00Z");
        while (true) {
            Quotas quotas = quotas(tree, usage, s.fleet());
            Map<String, FairOrder.Head> heads = new HashMap<>();
            for (int i = 0; i < pending.size(); i++) {
                if (!pending.get(i).isEmpty() && !passed.contains(i)) {
                    heads.put("t" + i, new FairOrder.Head(0, t0.plusSeconds(i)));
                }
            }
            java.util.Optional<String> next = FairOrder.next(tree, quotas, heads);
            if (next.isEmpty()) {
                break;
            }
            int i = Integer.parseInt(next.get().substring(1));
            int gang = pending.get(i).peek();
            GpuBudget.Limit limit = quotas.budget(next.get()).limits().get(GPU);
            if (gang <= free && (limit == null || gang <= limit.gpus())) {
                pending.get(i).poll();
                usage[i] += gang;
                free -= gang;
                check.accept(new State(tree, quotas(tree, usage, s.fleet())));
            } else {
                passed.add(i);
            }
        }
        Set<Integer> waiting = new HashSet<>();
        for (int i = 0; i < pending.size(); i++) {
            if (!pending.get(i).isEmpty()) {
                waiting.add(i);
            }
        }
        return new Served(s.fleet() - free, usage, waiting);
    }

    static Quotas quotas(QueueTree tree, long[] usage, long fleet) {
        Map<String, Map<String, Long>> byQueue = new HashMap<>();
        for (int i = 0; i < usage.length; i++) {
            byQueue.put("t" + i, Map.of(GPU, usage[i]));
        }
        return new Quotas(tree, byQueue, Map.of(GPU, fleet));
    }
}
