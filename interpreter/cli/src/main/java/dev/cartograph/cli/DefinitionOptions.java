package dev.cartograph.cli;

import dev.cartograph.interpreter.Definitions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code --definitions} option shared by commands that interpret objects: catalog plus these files. */
final class DefinitionOptions {
    @Option(names = "--definitions", paramLabel = "FILE|DIR",
            description = "definitions that add to or override the catalog for their kind (repeatable)")
    List<Path> paths = new ArrayList<>();

    /** The effective definitions; their problems come with them. */
    Definitions.Loaded load() {
        return Inputs.definitions(paths);
    }
}
