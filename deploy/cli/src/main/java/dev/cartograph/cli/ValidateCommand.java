package dev.cartograph.cli;

import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.problem.Problem;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code carto validate FILE|-}: checks definitions and lists every problem with its field path. */
@Command(
        name = "validate",
        description = "Validate Workload Map (Karta) definitions. Exit 0 valid, 1 invalid, 2 unreadable.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE|-", description = "definition file, folder, or - for standard input")
    String source;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Definitions.Loaded loaded;
        if ("-".equals(source)) {
            try (InputStream in = System.in) {
                loaded = Definitions.read(in, "standard input");
            } catch (java.io.IOException e) {
                err.println("standard input: " + e.getMessage());
                return Carto.UNREADABLE;
            }
        } else if (!java.nio.file.Files.exists(java.nio.file.Path.of(source))) {
            err.println(source + ": no such file or folder");
            return Carto.UNREADABLE;
        } else {
            loaded = Definitions.load(java.nio.file.Path.of(source));
        }
        boolean unreadable = loaded.problems().stream()
                .anyMatch(p -> p.isError() && p.field().isEmpty() && p.message().startsWith("cannot be read"));
        Inputs.report(loaded.problems(), err);
        if (unreadable) {
            return Carto.UNREADABLE;
        }
        for (WorkloadDefinition d : loaded.definitions().all()) {
            out.println("valid: " + d.name() + " (" + d.kind().qualified() + ", "
                    + d.components().size() + " components)");
        }
        long errors = loaded.problems().stream().filter(Problem::isError).count();
        if (errors > 0) {
            err.println(errors + " error" + (errors == 1 ? "" : "s"));
            return Carto.INVALID;
        }
        if (loaded.definitions().size() == 0) {
            err.println(Inputs.label(source) + ": no definitions found");
            return Carto.INVALID;
        }
        out.flush();
        return Carto.OK;
    }
}
