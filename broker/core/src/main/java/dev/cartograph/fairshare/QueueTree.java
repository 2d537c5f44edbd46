package dev.cartograph.fairshare;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The hub's Queues made consistent (ADR 0006): which queue each namespace belongs to, each queue's parent and
 * children, and a reason for each Queue the broker could not take as written. A Queue that cannot be read, names a
 * parent that does not exist or is refused, or is part of a parent cycle is left out (its namespaces go to
 * {@code default}); a namespace claimed by two queues stays with the queue first by name; a queue with children
 * holds no gangs (its namespaces go to {@code default}). The queue {@code default} always exists. Immutable; pure.
 */
public final class QueueTree {
    private final Map<String, QueueSpec> queues;
    private final Map<String, List<String>> children;
    private final Map<String, String> byNamespace;
    private final List<QueueSpec> selecting;
    private final Map<String, List<String>> problems;

    private QueueTree(
            Map<String, QueueSpec> queues,
            Map<String, List<String>> children,
            Map<String, String> byNamespace,
            List<QueueSpec> selecting,
            Map<String, List<String>> problems) {
        this.queues = queues;
        this.children = children;
        this.byNamespace = byNamespace;
        this.selecting = selecting;
        this.problems = problems;
    }

    /** The tree of the Queues read from the hub, each read on its own. */
    public static QueueTree of(Collection<QueueSpecs.Read> read) {
        Map<String, List<String>> problems = new TreeMap<>();
        Map<String, QueueSpec> candidates = new TreeMap<>();
        for (QueueSpecs.Read r : read) {
            if (r instanceof QueueSpecs.Invalid bad) {
                problems.computeIfAbsent(bad.name(), k -> new ArrayList<>()).add(bad.message());
            } else {
                QueueSpec spec = ((QueueSpecs.Valid) r).spec();
                candidates.put(spec.name(), spec);
            }
        }
        // parents: a queue stays only if its whole chain exists, is valid and has no cycle
        Map<String, QueueSpec> queues = new TreeMap<>();
        for (QueueSpec q : candidates.values()) {
            Optional<String> why = chainProblem(q, candidates, problems.keySet());
            if (why.isPresent()) {
                problems.computeIfAbsent(q.name(), k -> new ArrayList<>()).add(why.get());
            } else {
                queues.put(q.name(), q);
            }
        }
        if (!queues.containsKey(QueueSpec.DEFAULT)) {
            queues.put(QueueSpec.DEFAULT, QueueSpec.implicitDefault());
        }
        Map<String, List<String>> children = new TreeMap<>();
        for (QueueSpec q : queues.values()) {
            q.parent()
                    .ifPresent(p ->
                            children.computeIfAbsent(p, k -> new ArrayList<>()).add(q.name()));
        }
        Map<String, String> byNamespace = new LinkedHashMap<>();
        List<QueueSpec> selecting = new ArrayList<>();
        for (QueueSpec q : queues.values()) {
            boolean holds = !q.namespaces().isEmpty() || !q.selector().isEmpty();
            if (holds && children.containsKey(q.name())) {
                problems.computeIfAbsent(q.name(), k -> new ArrayList<>())
                        .add("spec.namespaces: a queue with child queues (" + String.join(", ", children.get(q.name()))
                                + ") holds no gangs; its namespaces go to queue " + QueueSpec.DEFAULT);
                continue;
            }
            for (String ns : q.namespaces()) {
                String first = byNamespace.putIfAbsent(ns, q.name());
                if (first != null) {
                    problems.computeIfAbsent(q.name(), k -> new ArrayList<>())
                            .add("spec.namespaces: " + ns + " is already in queue " + first);
                }
            }
            if (!q.selector().isEmpty()) {
                selecting.add(q);
            }
        }
        problems.replaceAll((k, v) -> List.copyOf(v));
        children.replaceAll((k, v) -> List.copyOf(v));
        return new QueueTree(
                Map.copyOf(queues),
                Map.copyOf(children),
                Map.copyOf(byNamespace),
                List.copyOf(selecting),
                Map.copyOf(problems));
    }

    private static Optional<String> chainProblem(
            QueueSpec q, Map<String, QueueSpec> valid, java.util.Set<String> refused) {
        List<String> path = new ArrayList<>(List.of(q.name()));
        QueueSpec at = q;
        while (at.parent().isPresent()) {
            String parent = at.parent().get();
            if (path.contains(parent)) {
                path.add(parent);
                return Optional.of("spec.parent: cycle " + String.join(" → ", path));
            }
            path.add(parent);
            at = valid.get(parent);
            if (at == null) {
                return Optional.of("spec.parent: "
                        + (refused.contains(parent) ? "queue " + parent + " is invalid" : "no queue named " + parent)
                        + "; its namespaces go to queue " + QueueSpec.DEFAULT);
            }
        }
        return Optional.empty();
    }

    /**
     * The queue of a namespace with these labels: the queue listing it, else the first queue by name whose selector
     * matches its labels, else {@code default}.
     */
    public String queueOf(String namespace, Map<String, String> labels) {
        String listed = byNamespace.get(namespace);
        if (listed != null) {
            return listed;
        }
        for (QueueSpec q : selecting) {
            if (q.selector().entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
                return q.name();
            }
        }
        return QueueSpec.DEFAULT;
    }

    public Optional<QueueSpec> queue(String name) {
        return Optional.ofNullable(queues.get(name));
    }

    /** Every queue taken, by name ({@code default} included). */
    public Collection<QueueSpec> queues() {
        return new TreeMap<>(queues).values();
    }

    /** The queue's children by name; empty for a leaf. */
    public List<String> children(String queue) {
        return children.getOrDefault(queue, List.of());
    }

    /** Top-level queues by name. */
    public List<String> roots() {
        return queues().stream()
                .filter(q -> q.parent().isEmpty())
                .map(QueueSpec::name)
                .toList();
    }

    /** The queue and its ancestors, from the queue up. */
    public List<QueueSpec> path(String queue) {
        List<QueueSpec> out = new ArrayList<>();
        for (QueueSpec q = queues.get(queue);
                q != null;
                q = q.parent().map(queues::get).orElse(null)) {
            out.add(q);
        }
        return out;
    }

    /** What the broker could not take as written, per Queue name (its status shows it). */
    public Map<String, List<String>> problems() {
        return problems;
    }
}
