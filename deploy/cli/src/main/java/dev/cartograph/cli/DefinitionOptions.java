package dev.cartograph.cli;

import dev.cartograph.interpreter.Definitions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code --definitions} option shared by commands that interpret objects: catalog plus these files. */
final class DefinitionOptions {
    @Option(
            names = "--definitions",
            paramLabel = "FILE|DIR",
            description = "definitions that add to or override the catalog for their kind (repeatable)")
    List<Path> paths = new ArrayList<>();

    /** The effective definitions without a cluster: the catalog overridden by these files. */
    Definitions.Loaded load() {
        return Inputs.definitions(paths);
    }

    /** As {@link #load()}, compiling only the catalog definitions of the kinds {@code wanted} accepts. */
    Definitions.Loaded load(java.util.function.Predicate<dev.cartograph.interpreter.kind.GroupVersionKind> wanted) {
        return Inputs.definitions(paths, wanted);
    }

    /** Only the files given (they override catalog and cluster definitions alike). */
    Definitions.Loaded files() {
        Definitions all = Definitions.empty();
        java.util.List<dev.cartograph.interpreter.problem.Problem> problems = new java.util.ArrayList<>();
        for (java.nio.file.Path p : paths) {
            Definitions.Loaded loaded = Definitions.load(p);
            problems.addAll(loaded.problems());
            all = all.overriddenBy(loaded.definitions());
        }
        return new Definitions.Loaded(all, problems);
    }
}
