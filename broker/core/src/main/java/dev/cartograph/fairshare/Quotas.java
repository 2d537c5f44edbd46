package dev.cartograph.fairshare;

import dev.cartograph.placement.GpuBudget;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The queues' GPUs at one moment (ADR 0006): per queue and model what it is promised (its nominal, a parent's own
 * plus its children's) and what its gangs use (a parent: its children's), what a gang of a queue may still take per
 * model (its {@link GpuBudget}), and each queue's weighted dominant share. The fleet is the root: a top-level queue
 * borrows from what the fleet has. Immutable; pure.
 */
public final class Quotas {
    private final QueueTree tree;
    private final Map<String, Long> fleet;
    private final Map<String, Map<String, Long>> inUse = new HashMap<>();
    private final Map<String, Map<String, Long>> nominal = new HashMap<>();

    /**
     * @param usage GPUs per model the placed gangs of each (leaf) queue hold
     * @param fleet GPUs per model on the fleet's ready clusters
     */
    public Quotas(QueueTree tree, Map<String, Map<String, Long>> usage, Map<String, Long> fleet) {
        this.tree = tree;
        this.fleet = Map.copyOf(fleet);
        for (String root : tree.roots()) {
            sum(root, usage);
        }
    }

    /** Fills {@link #inUse} and {@link #nominal} of the queue's subtree; leaves first. */
    private void sum(String queue, Map<String, Map<String, Long>> usage) {
        Map<String, Long> use = new TreeMap<>(usage.getOrDefault(queue, Map.of()));
        Map<String, Long> promised =
                new TreeMap<>(tree.queue(queue).orElseThrow().nominal());
        for (String child : tree.children(queue)) {
            sum(child, usage);
            inUse.get(child).forEach((m, n) -> use.merge(m, n, Long::sum));
            nominal.get(child).forEach((m, n) -> promised.merge(m, n, Long::sum));
        }
        inUse.put(queue, use);
        nominal.put(queue, promised);
    }

    /** The GPU models the queue is promised or uses (a parent: its subtree's), by name. */
    public Set<String> models(String queue) {
        Set<String> out = new TreeSet<>(inUse.getOrDefault(queue, Map.of()).keySet());
        out.addAll(nominal.getOrDefault(queue, Map.of()).keySet());
        return out;
    }

    /** GPUs of {@code model} the queue's gangs hold (a parent: all of its subtree's). */
    public long inUse(String queue, String model) {
        return inUse.getOrDefault(queue, Map.of()).getOrDefault(model, 0L);
    }

    /** GPUs of {@code model} the queue is promised: its own nominal plus its children's. */
    public long nominal(String queue, String model) {
        return nominal.getOrDefault(queue, Map.of()).getOrDefault(model, 0L);
    }

    /** GPUs of {@code model} the queue uses above its nominal. */
    public long borrowed(String queue, String model) {
        return Math.max(0, inUse(queue, model) - nominal(queue, model));
    }

    /** Most GPUs of {@code model} the queue may use: nominal plus its borrowing limit; {@code Long.MAX_VALUE}: no limit. */
    public long ceiling(String queue, String model) {
        Long limit = tree.queue(queue).orElseThrow().borrowingLimit().get(model);
        return limit == null ? Long.MAX_VALUE : nominal(queue, model) + limit;
    }

    /**
     * What one more gang of {@code queue} may take per model: for each model some queue on its path limits, the
     * least that any of them has left under its ceiling, explained by the queue that binds.
     */
    public GpuBudget budget(String queue) {
        List<QueueSpec> path = tree.path(queue);
        Set<String> limited = new TreeSet<>();
        path.forEach(q -> limited.addAll(q.borrowingLimit().keySet()));
        Map<String, GpuBudget.Limit> limits = new TreeMap<>();
        for (String model : limited) {
            GpuBudget.Limit tightest = null;
            for (QueueSpec q : path) {
                long ceiling = ceiling(q.name(), model);
                if (ceiling == Long.MAX_VALUE) {
                    continue;
                }
                long left = ceiling - inUse(q.name(), model);
                if (tightest == null || left < tightest.gpus()) {
                    tightest = new GpuBudget.Limit(left, explain(q, model, queue));
                }
            }
            limits.put(model, tightest);
        }
        return new GpuBudget(limits);
    }

    private String explain(QueueSpec q, String model, String of) {
        return (q.name().equals(of) ? "queue " : "parent queue ") + q.name() + ": nominal " + nominal(q.name(), model)
                + " + borrowing limit " + q.borrowingLimit().get(model) + " − " + inUse(q.name(), model) + " in use";
    }

    /**
     * How much more than promised a queue uses, against what it could borrow, divided by its weight (Kueue's dominant
     * resource share, KEP 1714): per model, GPUs above nominal over what its parent could lend (the fleet's GPUs of
     * that model at the top, at most a parent's ceiling below); the largest, ties to the first model by name.
     */
    public Share share(String queue) {
        QueueSpec q = tree.queue(queue).orElseThrow();
        Set<String> models = new TreeSet<>(inUse.getOrDefault(queue, Map.of()).keySet());
        double most = 0;
        String dominant = "";
        for (String model : models) {
            long lendable = lendable(q, model);
            long borrowed = borrowed(queue, model);
            if (lendable <= 0 || borrowed == 0) {
                continue;
            }
            double ratio = (double) borrowed / lendable;
            if (ratio > most) {
                most = ratio;
                dominant = model;
            }
        }
        return new Share(queue, most / q.weight(), most, dominant);
    }

    /** What the queue's parent could lend it of a model: the fleet's at the top; below, at most each parent's ceiling. */
    private long lendable(QueueSpec q, String model) {
        long lendable = fleet.getOrDefault(model, 0L);
        for (QueueSpec p : tree.path(q.name())) {
            if (p != q) {
                lendable = Math.min(lendable, ceiling(p.name(), model));
            }
        }
        return lendable;
    }

    /**
     * A queue's weighted dominant share ({@code value}: lower goes first), the unweighted ratio, and the model that
     * dominates ({@code ""} when the queue borrows nothing).
     */
    public record Share(String queue, double value, double unweighted, String dominantModel) {}
}
