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
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
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
            List<WorkloadRow> rows = new ArrayList<>();
            for (JsonNode o : objects) {
                if (live.interpreter.resolve(o) instanceof Resolution.Resolved r) {
                    long ready = ownership.podsOf(o.path("metadata").path("uid").asText()).stream()
                            .filter(PodSummary::ready)
                            .count();
                    WorkloadRow row = new WorkloadRow(
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

    private boolean matchesPhase(WorkloadRow row) {
        return phases.isEmpty() || phases.stream().anyMatch(p -> p.equalsIgnoreCase(row.phase()));
    }

    private void print(List<WorkloadRow> rows, Optional<String> namespace, PrintWriter out) throws Exception {
        if (output.structured()) {
            ArrayNode items = JsonNodeFactory.instance.arrayNode();
            rows.forEach(r -> items.add(r.json()));
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
        out.print(WorkloadRow.table(rows, namespace.isEmpty(), allTypes, output == Output.WIDE, Clock.systemUTC()));
        out.flush();
    }
}
