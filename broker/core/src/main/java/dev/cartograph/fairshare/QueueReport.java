package dev.cartograph.fairshare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What each queue has and uses at one moment (ADR 0006), for its status on the hub, REST and metrics: per GPU model
 * its nominal quota, the GPUs its gangs hold and how many of those are borrowed, the totals over models, how many
 * gangs wait in it, its share, and what the broker could not take of its Queue object as written. Immutable; pure.
 *
 * @param queues by name: every queue taken ({@code default} included) and every Queue left out for its problems
 */
public record QueueReport(List<Row> queues) {
    public static final QueueReport EMPTY = new QueueReport(List.of());

    /** One GPU model of one queue. */
    public record Model(String model, long nominal, long inUse, long borrowed) {}

    /**
     * One queue.
     *
     * @param parent   its parent queue, empty at the top
     * @param models   by model name: every model it is promised or uses
     * @param share    its weighted dominant share (0 when it borrows nothing)
     * @param problems why its Queue object is not (or not wholly) taken; a queue left out has no models
     */
    public record Row(
            String name,
            Optional<String> parent,
            double weight,
            List<Model> models,
            long nominalGpus,
            long inUseGpus,
            long borrowedGpus,
            int waiting,
            double share,
            List<String> problems) {
        public Row {
            models = List.copyOf(models);
            problems = List.copyOf(problems);
        }

        /**
         * The {@code .status} of its Queue object on the hub: {@code nominalGPUs}, {@code inUseGPUs}, {@code
         * borrowedGPUs} and {@code waiting} (what {@code kubectl get queues} shows), {@code share} (3 decimals),
         * {@code gpus} per model ({@code nominal}, {@code inUse}, {@code borrowed}; nodes without the product label
         * as {@code unlabelled}) and {@code problems}.
         */
        public Map<String, Object> status() {
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("nominalGPUs", nominalGpus);
            status.put("inUseGPUs", inUseGpus);
            status.put("borrowedGPUs", borrowedGpus);
            status.put("waiting", waiting);
            status.put("share", Math.round(share * 1000) / 1000.0);
            Map<String, Object> gpus = new LinkedHashMap<>();
            for (Model m : models) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("nominal", m.nominal());
                row.put("inUse", m.inUse());
                row.put("borrowed", m.borrowed());
                gpus.put(m.model().isEmpty() ? "unlabelled" : m.model(), row);
            }
            status.put("gpus", gpus);
            status.put("problems", problems);
            return status;
        }
    }

    public QueueReport {
        queues = List.copyOf(queues);
    }

    /** @param waiting gangs waiting per (leaf) queue */
    public static QueueReport of(QueueTree tree, Quotas quotas, Map<String, Integer> waiting) {
        Map<String, Row> rows = new TreeMap<>();
        for (QueueSpec q : tree.queues()) {
            TreeSet<String> models = new TreeSet<>(q.nominal().keySet());
            models.addAll(quotas.models(q.name()));
            List<Model> out = new ArrayList<>();
            long nominal = 0;
            long inUse = 0;
            long borrowed = 0;
            for (String m : models) {
                Model row = new Model(
                        m, quotas.nominal(q.name(), m), quotas.inUse(q.name(), m), quotas.borrowed(q.name(), m));
                out.add(row);
                nominal += row.nominal();
                inUse += row.inUse();
                borrowed += row.borrowed();
            }
            int waits = waitingBelow(q.name(), tree, waiting);
            rows.put(
                    q.name(),
                    new Row(
                            q.name(),
                            q.parent(),
                            q.weight(),
                            out,
                            nominal,
                            inUse,
                            borrowed,
                            waits,
                            quotas.share(q.name()).value(),
                            tree.problems().getOrDefault(q.name(), List.of())));
        }
        tree.problems()
                .forEach((name, why) ->
                        rows.putIfAbsent(name, new Row(name, Optional.empty(), 0, List.of(), 0, 0, 0, 0, 0, why)));
        return new QueueReport(new ArrayList<>(rows.values()));
    }

    /** Gangs waiting in the queue and every queue below it. */
    private static int waitingBelow(String queue, QueueTree tree, Map<String, Integer> waiting) {
        int n = waiting.getOrDefault(queue, 0);
        for (String child : tree.children(queue)) {
            n += waitingBelow(child, tree, waiting);
        }
        return n;
    }

    /** The row of a queue, if it is reported. */
    public Optional<Row> queue(String name) {
        return queues.stream().filter(r -> r.name().equals(name)).findFirst();
    }
}
