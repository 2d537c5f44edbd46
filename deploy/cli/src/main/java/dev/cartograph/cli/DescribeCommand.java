package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.cli.kube.ApiType;
import dev.cartograph.cli.kube.ClusterOptions;
import dev.cartograph.cli.kube.Kube;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import dev.cartograph.interpreter.problem.Problem;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code carto describe TYPE/NAME | TYPE NAME | -f FILE}: a workload's tree, resources, gang, phase, and live pods. */
@Command(
        name = "describe",
        description = "Show a workload's components, replicas, per-pod resources, gang, phase and pods.")
final class DescribeCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TYPE[/NAME]")
    String type;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME")
    String name;

    @Option(
            names = {"-f", "--filename"},
            paramLabel = "FILE|-",
            description = "manifest file, or - for standard input (no cluster)")
    String file;

    @Mixin
    DefinitionOptions definitions;

    @Mixin
    ClusterOptions cluster;

    /** On a hub, the broker to ask for a placed workload's member summary. */
    @Mixin
    BrokerOptions broker;

    @Option(names = "--pod-limit", defaultValue = "10", description = "pods shown per role (default: ${DEFAULT-VALUE})")
    int podLimit;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            converter = Output.Plain.class,
            completionCandidates = Output.Plain.class,
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Output output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Errors errors = new Errors(output, out, err);
        if ((file == null) == (type == null)) {
            return errors.fail(Carto.UNREADABLE, "usage", "give TYPE/NAME, TYPE NAME, or -f FILE");
        }
        return file != null ? fromFile(out, err, errors) : live(out, err, errors);
    }

    private int fromFile(PrintWriter out, PrintWriter err, Errors errors) throws Exception {
        List<JsonNode> objects;
        try {
            objects = Inputs.objects(file);
        } catch (Inputs.Unreadable e) {
            return errors.fail(Carto.UNREADABLE, "unreadable", e.getMessage());
        }
        java.util.Set<dev.cartograph.interpreter.kind.GroupVersionKind> kinds = new java.util.HashSet<>();
        for (JsonNode o : objects) {
            kinds.add(dev.cartograph.interpreter.kind.GroupVersionKind.of(
                    o.path("apiVersion").asText(""), o.path("kind").asText("")));
        }
        // only the kinds in the file are compiled: a short command stays short as the catalog grows
        Definitions.Loaded loaded = definitions.load(kinds::contains);
        Inputs.report(loaded.problems(), err);
        Interpreter interpreter = Interpreter.of(loaded.definitions());
        int exit = Carto.OK;
        ArrayNode results = JsonNodeFactory.instance.arrayNode();
        for (JsonNode object : objects) {
            exit = Math.max(exit, show(interpreter.resolve(object), null, Optional.empty(), results, out, err));
        }
        flush(results, out);
        return exit;
    }

    private int live(PrintWriter out, PrintWriter err, Errors errors) throws Exception {
        String token = type;
        String objectName = name;
        if (type.contains("/")) {
            token = type.substring(0, type.indexOf('/'));
            objectName = type.substring(type.indexOf('/') + 1);
        }
        if (objectName == null) {
            return errors.fail(Carto.UNREADABLE, "usage", "which " + token + "? give TYPE/NAME or TYPE NAME");
        }
        try (Live live = Live.connect(cluster, definitions.files())) {
            Inputs.report(live.definitions.problems(), err);
            List<ApiType> kinds = live.typesFor(token);
            if (kinds.isEmpty()) {
                return errors.fail(
                        Carto.NO_DEFINITION,
                        "no_definition",
                        "no definition for type \"" + token + "\"; see carto definitions");
            }
            String namespace = cluster.namespaceOverride().orElse(live.defaultNamespace());
            Optional<JsonNode> object = Optional.empty();
            for (ApiType kind : kinds) {
                object = object.or(() -> live.reader.get(kind, namespace, name(type, name)));
            }
            if (object.isEmpty()) {
                return errors.fail(
                        Carto.NOT_FOUND,
                        "not_found",
                        kinds.get(0).resource() + " \"" + objectName + "\" not found in namespace " + namespace);
            }
            Resolution r = live.interpreter.resolve(object.get());
            HubMarks marks = HubMarks.of(object.get());
            Optional<Federation> federation = marks.federated() // its pods run on a member cluster, not here
                    ? Optional.of(Federation.look(
                            marks, object.get().path("metadata").path("uid").asText(), broker))
                    : Optional.empty();
            Map<String, List<PodSummary>> pods = null;
            if (r instanceof Resolution.Resolved resolved && federation.isEmpty()) {
                Optional<String> ns = Optional.of(namespace);
                List<JsonNode> all = live.pods(ns);
                List<JsonNode> mine = live.ownership(all, ns)
                        .podsOf(object.get().path("metadata").path("uid").asText());
                pods = LivePods.group(
                        live.definitions
                                .definitions()
                                .find(dev.cartograph.interpreter.kind.GroupVersionKind.of(
                                        resolved.view().identity().apiVersion(),
                                        resolved.view().identity().kind()))
                                .orElseThrow(),
                        mine);
            }
            ArrayNode results = JsonNodeFactory.instance.arrayNode();
            int exit = show(r, pods, federation, results, out, err);
            flush(results, out);
            Optional<String> refused = federation.flatMap(Federation::refused);
            if (refused.isPresent()) { // shown, and said once more where scripts look
                err.println("error: " + refused.get());
                err.flush();
                exit = Math.max(exit, Carto.ACCESS_DENIED);
            }
            return exit;
        } catch (Kube.ClusterError e) {
            return errors.fail(Carto.CLUSTER_ERROR, "cluster", e.getMessage());
        }
    }

    private static String name(String type, String name) {
        return type.contains("/") ? type.substring(type.indexOf('/') + 1) : name;
    }

    private int show(
            Resolution r,
            Map<String, List<PodSummary>> pods,
            Optional<Federation> federation,
            ArrayNode results,
            PrintWriter out,
            PrintWriter err) {
        boolean structured = output.structured();
        if (r instanceof Resolution.Resolved resolved) {
            if (structured) {
                ObjectNode view = ViewJson.of(resolved.view(), resolved.problems(), pods);
                federation.ifPresent(f -> f.addTo(view));
                results.add(view);
            } else {
                out.print(ViewTable.of(resolved.view(), resolved.problems()));
                if (federation.isPresent()) {
                    out.print("\n" + federation.get().table());
                } else if (pods != null) {
                    out.print(LivePods.table(pods, podLimit));
                }
                out.println();
            }
            return resolved.problems().stream().anyMatch(Problem::isError) ? Carto.INVALID : Carto.OK;
        }
        if (r instanceof Resolution.NoDefinition none) {
            ObjectNode e = JsonNodeFactory.instance
                    .objectNode()
                    .put("error", "no_definition")
                    .put("kind", none.kind().kind())
                    .put("apiVersion", none.kind().apiVersion())
                    .put("name", none.identity().name())
                    .put("message", none.problems().get(0).toString());
            if (structured) {
                results.add(e);
            } else {
                err.println(none.problems().get(0));
            }
            return Carto.NO_DEFINITION;
        }
        if (structured) {
            ObjectNode e = JsonNodeFactory.instance.objectNode().put("error", "invalid_object");
            ArrayNode msgs = e.putArray("problems");
            r.problems().forEach(p -> msgs.add(p.toString()));
            results.add(e);
        } else {
            Inputs.report(r.problems(), err);
        }
        return Carto.INVALID;
    }

    private void flush(ArrayNode results, PrintWriter out) throws Exception {
        if (output.structured()) {
            out.print(output.render(results.size() == 1 ? results.get(0) : results));
        }
        out.flush();
    }
}
