package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Problem;
import dev.cartograph.interpreter.Resolution;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code carto describe -f FILE|-}: interprets manifests with no cluster. */
@Command(name = "describe", description = "Show a workload's components, replicas, per-pod resources, gang and phase.")
final class DescribeCommand implements Callable<Integer> {
    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE|-", description = "manifest file, or - for standard input")
    String file;

    @Mixin
    DefinitionOptions definitions;

    @Option(names = {"-o", "--output"}, defaultValue = "table", description = "table, json or yaml (default: ${DEFAULT-VALUE})")
    String output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!List.of("table", "json", "yaml").contains(output)) {
            err.println("--output must be table, json or yaml, not '" + output + "'");
            return Carto.UNREADABLE;
        }
        boolean structured = !output.equals("table");
        List<JsonNode> objects;
        try {
            objects = Inputs.objects(file);
        } catch (Inputs.Unreadable e) {
            return fail(structured, "unreadable", e.getMessage(), out, err, Carto.UNREADABLE);
        }
        Definitions.Loaded loaded = definitions.load();
        Inputs.report(loaded.problems(), err);
        Interpreter interpreter = Interpreter.of(loaded.definitions());
        int exit = Carto.OK;
        ArrayNode results = JsonNodeFactory.instance.arrayNode();
        for (JsonNode object : objects) {
            Resolution r = interpreter.resolve(object);
            if (r instanceof Resolution.Resolved resolved) {
                if (structured) {
                    results.add(ViewJson.of(resolved.view(), resolved.problems()));
                } else {
                    out.println(ViewTable.of(resolved.view(), resolved.problems()));
                }
                if (resolved.problems().stream().anyMatch(Problem::isError)) {
                    exit = Math.max(exit, Carto.INVALID);
                }
            } else if (r instanceof Resolution.NoDefinition none) {
                exit = Math.max(exit, Carto.NO_DEFINITION);
                ObjectNode e = JsonNodeFactory.instance.objectNode().put("error", "no_definition")
                        .put("kind", none.kind().kind()).put("apiVersion", none.kind().apiVersion())
                        .put("name", none.identity().name()).put("message", none.problems().get(0).toString());
                if (structured) {
                    results.add(e);
                } else {
                    err.println(none.problems().get(0));
                }
            } else {
                exit = Math.max(exit, Carto.INVALID);
                if (structured) {
                    ObjectNode e = JsonNodeFactory.instance.objectNode().put("error", "invalid_object");
                    ArrayNode msgs = e.putArray("problems");
                    r.problems().forEach(p -> msgs.add(p.toString()));
                    results.add(e);
                } else {
                    Inputs.report(r.problems(), err);
                }
            }
        }
        if (structured) {
            JsonNode body = results.size() == 1 ? results.get(0) : results;
            out.print(output.equals("json")
                    ? Documents.json().writerWithDefaultPrettyPrinter().writeValueAsString(body) + "\n"
                    : Documents.yaml().writeValueAsString(body));
        }
        out.flush();
        return exit;
    }

    private static int fail(boolean structured, String code, String message, PrintWriter out, PrintWriter err, int exit) {
        if (structured) {
            out.println(JsonNodeFactory.instance.objectNode().put("error", code).put("message", message));
            out.flush();
        } else {
            err.println(message);
            err.flush();
        }
        return exit;
    }
}
