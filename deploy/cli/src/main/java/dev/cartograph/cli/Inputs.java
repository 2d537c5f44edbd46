package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.problem.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reading files or standard input, and the effective definitions (catalog + --definitions). */
final class Inputs {
    private Inputs() {}

    /** Thrown when input cannot be read at all; the message says what and why. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    static List<JsonNode> objects(String source) throws Unreadable {
        try (InputStream in = open(source)) {
            return Documents.read(in);
        } catch (IOException e) {
            throw new Unreadable(label(source) + ": cannot be read as YAML or JSON: " + firstLine(e.getMessage()));
        }
    }

    static InputStream open(String source) throws Unreadable {
        if ("-".equals(source)) {
            return System.in;
        }
        Path path = Path.of(source);
        if (!Files.isReadable(path)) {
            throw new Unreadable(source + ": no such readable file");
        }
        try {
            return Files.newInputStream(path);
        } catch (IOException e) {
            throw new Unreadable(source + ": " + e.getMessage());
        }
    }

    /** The catalog, overridden by every {@code --definitions} file or folder in order. */
    static Definitions.Loaded definitions(List<Path> extra) {
        return definitions(extra, kind -> true);
    }

    /** The catalog (only the kinds {@code wanted} accepts), overridden by every file given. */
    static Definitions.Loaded definitions(
            List<Path> extra, java.util.function.Predicate<dev.cartograph.interpreter.kind.GroupVersionKind> wanted) {
        Definitions.Loaded catalog = Catalog.load(wanted);
        List<Problem> problems = new ArrayList<>(catalog.problems());
        Definitions defs = catalog.definitions();
        for (Path p : extra) {
            Definitions.Loaded loaded = Definitions.load(p);
            problems.addAll(loaded.problems());
            defs = defs.overriddenBy(loaded.definitions());
        }
        return new Definitions.Loaded(defs, problems);
    }

    static void report(List<Problem> problems, PrintWriter err) {
        problems.forEach(p -> err.println(p));
        err.flush();
    }

    static String label(String source) {
        return "-".equals(source) ? "standard input" : source;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
