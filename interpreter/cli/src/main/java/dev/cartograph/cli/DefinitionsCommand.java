package dev.cartograph.cli;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
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

    @Option(names = {"-o", "--output"}, defaultValue = "table", description = "table or yaml (yaml pipes into carto validate -)")
    String output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Definitions.Loaded loaded = definitions.load();
        Inputs.report(loaded.problems(), spec.commandLine().getErr());
        List<WorkloadDefinition> defs = loaded.definitions().all().stream()
                .filter(d -> name == null || d.name().equals(name))
                .sorted(Comparator.comparing(WorkloadDefinition::name)).toList();
        if (name != null && defs.isEmpty()) {
            spec.commandLine().getErr().println("no definition named " + name);
            return Carto.NO_DEFINITION;
        }
        if (output.equals("yaml")) {
            for (WorkloadDefinition d : defs) {
                out.print(Documents.yaml().writeValueAsString(d.source()));
            }
        } else {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"NAME", "KIND", "VERSION", "COMPONENTS", "STATUSES", "ORIGIN"});
            for (WorkloadDefinition d : defs) {
                rows.add(new String[] {d.name(), d.kind().group().isEmpty() ? d.kind().kind() : d.kind().kind() + "." + d.kind().group(),
                        d.kind().version(),
                        d.components().stream().map(ComponentDefinition::name).collect(Collectors.joining(",")),
                        d.status().mappings().keySet().stream().sorted().map(Phase::mappingKey).collect(Collectors.joining(",")),
                        d.origin()});
            }
            out.print(Columns.render(rows));
        }
        out.flush();
        return Carto.OK;
    }
}
