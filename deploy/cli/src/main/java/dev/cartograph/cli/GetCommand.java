package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.cli.kube.ApiType;
import dev.cartograph.cli.kube.ClusterOptions;
import dev.cartograph.cli.kube.Kube;
import dev.cartograph.cli.kube.Ownership;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.WorkloadView;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code carto get}: a table of live workloads with normalized phase, ready/desired pods and GPUs. */
@Command(name = "get", description = "List workloads in a cluster: phase, ready/desired pods, GPUs.")
final class GetCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "TYPE[/NAME]",
            description = "kind, plural, short name or kind.version.group")
    String type;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME")
    String name;

    @Option(names = "--all-types", description = "every workload kind the cluster serves (top-level workloads only)")
    boolean allTypes;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "all namespaces")
    boolean allNamespaces;

    @Option(
            names = {"-l", "--selector"},
            paramLabel = "SELECTOR",
            description = "label selector")
    String selector;

    @Option(
            names = "--phase",
            paramLabel = "PHASE",
            description = "only these phases (repeatable); on a hub also Queued or Placed")
    List<String> phases = new ArrayList<>();

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            converter = Output.WithWide.class,
            completionCandidates = Output.WithWide.class,
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Output output;

    @Mixin
    ClusterOptions cluster;

    @Mixin
    DefinitionOptions definitions;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** One line of the table; {@code hub} is what a Cartograph broker wrote on the object (none off a hub). */
    record Row(String namespace, String name, String kind, WorkloadView view, long ready, HubMarks hub) {
        Row(String namespace, String name, String kind, WorkloadView view, long ready) {
            this(namespace, name, kind, view, ready, HubMarks.NONE);
        }

        /** Placed by a broker on {@code cluster}, with no phase written yet. */
        Row(String namespace, String name, String kind, WorkloadView view, long ready, String cluster) {
            this(
                    namespace,
                    name,
                    kind,
                    view,
                    ready,
                    new HubMarks(
                            java.util.Optional.empty(),
                            java.util.Optional.of(cluster),
                            java.util.Optional.empty(),
                            java.util.Optional.empty()));
        }

        /** The member a Cartograph hub placed the object on, "" when none. */
        String cluster() {
            return hub.cluster().orElse("");
        }

        /** The interpreted phase, or the broker's where it knows better (see {@link HubMarks#shownPhase}). */
        String phase() {
            return hub.shownPhase(view.phase());
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Errors errors = new Errors(output, out, spec.commandLine().getErr());
        if (allTypes == (type != null)) {
            return errors.fail(Carto.UNREADABLE, "usage", "give a TYPE or --all-types");
        }
        for (String p : phases) {
            if (Phase.parse(p).isEmpty() && HubMarks.BROKER_PHASES.stream().noneMatch(p::equalsIgnoreCase)) {
                return errors.fail(Carto.UNREADABLE, "usage", "--phase " + p + " is not a phase");
            }
        }
        try (Live live = Live.connect(cluster, definitions.files())) {
            Inputs.report(live.definitions.problems(), spec.commandLine().getErr());
            Optional<String> namespace = allNamespaces
                    ? Optional.empty()
                    : Optional.of(cluster.namespaceOverride().orElse(live.defaultNamespace()));
            String objectName = name;
            List<ApiType> kinds;
            if (allTypes) {
                kinds = live.kinds().stream().filter(ApiType::served).toList();
            } else {
                String token = type;
                if (type.contains("/")) {
                    token = type.substring(0, type.indexOf('/'));
                    objectName = type.substring(type.indexOf('/') + 1);
                }
                kinds = live.typesFor(token);
                if (kinds.isEmpty()) {
                    return errors.fail(
                            Carto.NO_DEFINITION,
                            "no_definition",
                            "no definition for type \"" + token + "\"; see carto definitions");
                }
            }
            List<JsonNode> objects = new ArrayList<>();
            for (ApiType kind : kinds) {
                if (objectName != null) {
                    String ns = namespace.orElse(live.defaultNamespace());
                    Optional<JsonNode> one = live.reader.get(kind, ns, objectName);
                    if (one.isEmpty()) {
                        return errors.fail(
                                Carto.NOT_FOUND,
                                "not_found",
                                kind.resource() + " \"" + objectName + "\" not found in namespace " + ns);
                    }
                    objects.add(one.get());
                } else {
                    objects.addAll(live.reader.list(kind, namespace, Optional.ofNullable(selector)));
                }
            }
            if (allTypes) {
                objects = objects.stream()
                        .filter(o -> Ownership.controller(o)
                                .filter(ref -> live.isWorkloadKind(
                                        ref.path("apiVersion").asText(),
                                        ref.path("kind").asText()))
                                .isEmpty())
                        .toList();
            }
            List<JsonNode> pods = live.pods(namespace);
            Ownership ownership = live.ownership(pods, namespace);
            List<Row> rows = new ArrayList<>();
            for (JsonNode o : objects) {
                if (live.interpreter.resolve(o) instanceof Resolution.Resolved r) {
                    long ready = ownership.podsOf(o.path("metadata").path("uid").asText()).stream()
                            .filter(PodSummary::ready)
                            .count();
                    Row row = new Row(
                            o.path("metadata").path("namespace").asText(""),
                            r.view().identity().name(),
                            r.view().identity().kind(),
                            r.view(),
                            ready,
                            HubMarks.of(o));
                    if (matchesPhase(row)) {
                        rows.add(row);
                    }
                }
            }
            print(rows, namespace, out);
            return Carto.OK;
        } catch (Kube.ClusterError e) {
            return errors.fail(Carto.CLUSTER_ERROR, "cluster", e.getMessage());
        }
    }

    private boolean matchesPhase(Row row) {
        return phases.isEmpty() || phases.stream().anyMatch(p -> p.equalsIgnoreCase(row.phase()));
    }

    private void print(List<Row> rows, Optional<String> namespace, PrintWriter out) throws Exception {
        if (output.structured()) {
            ArrayNode items = JsonNodeFactory.instance.arrayNode();
            rows.forEach(r -> items.add(json(r)));
            ObjectNode list = JsonNodeFactory.instance.objectNode();
            list.set("items", items);
            out.print(output.render(list));
            out.flush();
            return;
        }
        if (rows.isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("No workloads found"
                            + namespace.map(ns -> " in namespace " + ns).orElse("") + ".");
            spec.commandLine().getErr().flush();
            return;
        }
        out.print(table(rows, namespace.isEmpty(), allTypes, output == Output.WIDE, Clock.systemUTC()));
        out.flush();
    }

    static String table(List<Row> rows, boolean withNamespace, boolean withKind, boolean wide, Clock clock) {
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
        for (Row r : rows) {
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

    private static ObjectNode json(Row r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("apiVersion", r.view().identity().apiVersion())
                .put("kind", r.kind())
                .put("namespace", r.namespace())
                .put("name", r.name())
                .put("phase", r.phase());
        r.hub().cluster().ifPresent(c -> n.put("cluster", c));
        ArrayNode phases = n.putArray("phases");
        r.view().status().phases().forEach(p -> phases.add(p.displayName()));
        n.putObject("pods").put("desired", r.view().totals().pods()).put("ready", r.ready());
        n.put("gpus", r.view().totals().gpus())
                .put("definition", r.view().definition())
                .put("origin", r.view().origin());
        n.putObject("gang").put("minMember", r.view().gang().minMember());
        return n;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
