package dev.cartograph.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.view.Phase;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code carto definitions [NAME]}: the effective definitions and where each came from. */
@Command(name = "definitions", description = "List the effective definitions (catalog plus --definitions).")
final class DefinitionsCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "one definition by name")
    String name;

    @Mixin
    DefinitionOptions definitions;

    @Mixin
    dev.cartograph.cli.kube.ClusterOptions cluster;

    @Option(names = "--local", description = "do not read definitions from the cluster")
    boolean local;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            paramLabel = "FORMAT",
            converter = Output.Plain.class,
            completionCandidates = Output.Plain.class,
            description =
                    "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json and yaml print the definitions, which pipe into carto validate -")
    Output output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Catalog + cluster Kartas (when a cluster is configured) + --definitions. */
    private Definitions.Loaded effective() {
        if (local || !cluster.clusterConfigured()) {
            return definitions.load();
        }
        try (Live live = Live.connect(cluster, definitions.files())) {
            return live.definitions;
        } catch (dev.cartograph.cli.kube.Kube.ClusterError e) {
            Definitions.Loaded local = definitions.load();
            java.util.List<dev.cartograph.interpreter.problem.Problem> problems =
                    new java.util.ArrayList<>(local.problems());
            problems.add(dev.cartograph.interpreter.problem.Problem.warning(
                    "cluster", "", e.getMessage() + "; using the built-in catalog"));
            return new Definitions.Loaded(local.definitions(), problems);
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Definitions.Loaded loaded = effective();
        Inputs.report(loaded.problems(), spec.commandLine().getErr());
        List<WorkloadDefinition> defs = loaded.definitions().all().stream()
                .filter(d -> name == null || d.name().equals(name))
                .sorted(Comparator.comparing(WorkloadDefinition::name))
                .toList();
        if (name != null && defs.isEmpty()) {
            return new Errors(output, out, spec.commandLine().getErr())
                    .fail(Carto.NO_DEFINITION, "no_definition", "no definition named " + name);
        }
        if (output == Output.YAML) {
            for (WorkloadDefinition d : defs) {
                out.print(output.render(d.source())); // one document each: a stream carto validate - reads
            }
        } else if (output == Output.JSON) {
            out.print(output.render(name != null ? defs.get(0).source() : list(defs)));
        } else {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"NAME", "KIND", "VERSION", "COMPONENTS", "STATUSES", "ORIGIN"});
            for (WorkloadDefinition d : defs) {
                rows.add(new String[] {
                    d.name(),
                    d.kind().group().isEmpty()
                            ? d.kind().kind()
                            : d.kind().kind() + "." + d.kind().group(),
                    d.kind().version(),
                    d.components().stream().map(ComponentDefinition::name).collect(Collectors.joining(",")),
                    d.status().mappings().keySet().stream()
                            .sorted()
                            .map(Phase::mappingKey)
                            .collect(Collectors.joining(",")),
                    d.origin()
                });
            }
            out.print(Columns.render(rows));
        }
        out.flush();
        return Carto.OK;
    }

    /** Several definitions as kubectl prints several objects: a {@code kind: List} (which carto validate unwraps). */
    private static ObjectNode list(List<WorkloadDefinition> defs) {
        ObjectNode list =
                JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "List");
        ArrayNode items = list.putArray("items");
        defs.forEach(d -> items.add(d.source()));
        return list;
    }
}
