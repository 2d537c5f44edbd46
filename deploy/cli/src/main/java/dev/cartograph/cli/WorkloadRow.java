package dev.cartograph.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.view.WorkloadView;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One line of {@code carto get}: a workload's view and ready pods, and {@code hub}, what a Cartograph broker
 * wrote on the object (none off a hub); rendered as a table or as JSON. Immutable.
 */
record WorkloadRow(String namespace, String name, String kind, WorkloadView view, long ready, HubMarks hub) {
    WorkloadRow(String namespace, String name, String kind, WorkloadView view, long ready) {
        this(namespace, name, kind, view, ready, HubMarks.NONE);
    }

    /** Placed by a broker on {@code cluster}, with no phase written yet. */
    WorkloadRow(String namespace, String name, String kind, WorkloadView view, long ready, String cluster) {
        this(
                namespace,
                name,
                kind,
                view,
                ready,
                new HubMarks(Optional.empty(), Optional.of(cluster), Optional.empty(), Optional.empty()));
    }

    /** The member a Cartograph hub placed the object on, "" when none. */
    String cluster() {
        return hub.cluster().orElse("");
    }

    /** The interpreted phase, or the broker's where it knows better (see {@link HubMarks#shownPhase}). */
    String phase() {
        return hub.shownPhase(view.phase());
    }

    /** The {@code carto get} table; the CLUSTER column appears when any row was placed by a broker. */
    static String table(List<WorkloadRow> rows, boolean withNamespace, boolean withKind, boolean wide, Clock clock) {
        List<String[]> lines = new ArrayList<>();
        List<String> header = new ArrayList<>();
        if (withNamespace) {
            header.add("NAMESPACE");
        }
        header.add("NAME");
        if (withKind) {
            header.add("KIND");
        }
        boolean federated = rows.stream().anyMatch(r -> !r.cluster().isEmpty());
        if (federated) {
            header.add("CLUSTER");
        }
        header.addAll(List.of("PHASE", "PODS", "GPUS", "AGE"));
        if (wide) {
            header.addAll(List.of("GANG", "COMPONENTS", "DEFINITION"));
        }
        lines.add(header.toArray(String[]::new));
        for (WorkloadRow r : rows) {
            List<String> cells = new ArrayList<>();
            if (withNamespace) {
                cells.add(r.namespace());
            }
            cells.add(r.name());
            if (withKind) {
                cells.add(r.kind());
            }
            if (federated) {
                cells.add(r.cluster().isEmpty() ? "-" : r.cluster());
            }
            cells.add(r.phase());
            // a placed object's pods run on its member cluster, not here: their readiness is not known on the hub
            cells.add((r.cluster().isEmpty() ? String.valueOf(r.ready()) : "-") + "/"
                    + r.view().totals().pods());
            cells.add(String.valueOf(r.view().totals().gpus()));
            cells.add(Format.age(r.view(), clock));
            if (wide) {
                cells.add(
                        r.view().gang().minMember() == 0
                                ? "-"
                                : String.valueOf(r.view().gang().minMember()));
                cells.add(
                        r.view().podInstances().isEmpty()
                                ? "-"
                                : r.view()
                                        .components()
                                        .flatMap(c -> c.instances().stream()
                                                .filter(i -> i.hasPods())
                                                .map(i -> (c.instances().size() > 1 ? i.id() : c.name()) + "="
                                                        + i.replicas().desired()))
                                        .collect(Collectors.joining(",")));
                cells.add(r.view().definition());
            }
            lines.add(cells.toArray(String[]::new));
        }
        return Columns.render(lines);
    }

    /** The {@code carto get -o json|yaml} item. */
    ObjectNode json() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("apiVersion", view.identity().apiVersion())
                .put("kind", kind)
                .put("namespace", namespace)
                .put("name", name)
                .put("phase", phase());
        hub.cluster().ifPresent(c -> n.put("cluster", c));
        ArrayNode phases = n.putArray("phases");
        view.status().phases().forEach(p -> phases.add(p.displayName()));
        n.putObject("pods").put("desired", view.totals().pods()).put("ready", ready);
        n.put("gpus", view.totals().gpus()).put("definition", view.definition()).put("origin", view.origin());
        n.putObject("gang").put("minMember", view.gang().minMember());
        return n;
    }
}
