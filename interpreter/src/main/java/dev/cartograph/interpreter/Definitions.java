package dev.cartograph.interpreter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.DefinitionParser;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.jq.Jq;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.problem.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * An immutable set of workload definitions, at most one per kind (group, version, kind), and the
 * ways to load them: files, directories, classpath folders, streams. Loading never throws for bad
 * definitions: each one is reported with its field path and skipped, and the rest load.
 * Thread-safe.
 */
public final class Definitions {
    /** The kind of a definition document, and of the cluster-scoped objects ({@code kartas.run.ai}) a cluster stores them as. */
    public static final GroupVersionKind KARTA =
            GroupVersionKind.of(DefinitionParser.API_VERSION, DefinitionParser.KIND);
    /** The origin recorded on definitions read from a cluster's Karta objects. */
    public static final String CLUSTER_ORIGIN = "cluster";

    private static final Definitions EMPTY = new Definitions(Map.of());

    private final Map<GroupVersionKind, WorkloadDefinition> byKind;

    private Definitions(Map<GroupVersionKind, WorkloadDefinition> byKind) {
        this.byKind = Collections.unmodifiableMap(new LinkedHashMap<>(byKind));
    }

    /** What a load produced: the valid definitions, and every problem (errors and warnings). */
    public record Loaded(Definitions definitions, List<Problem> problems) {
        public Loaded {
            problems = List.copyOf(problems);
        }

        public boolean hasErrors() {
            return problems.stream().anyMatch(Problem::isError);
        }
    }

    public static Definitions empty() {
        return EMPTY;
    }

    public static Definitions of(Collection<WorkloadDefinition> definitions) {
        Map<GroupVersionKind, WorkloadDefinition> map = new LinkedHashMap<>();
        definitions.forEach(d -> map.put(d.kind(), d));
        return new Definitions(map);
    }

    /** Parses already-read documents; {@code origin} is recorded on each definition. */
    public static Loaded parse(List<JsonNode> documents, String origin) {
        return parse(documents, origin, kind -> true);
    }

    /**
     * Parses only the documents whose root kind {@code wanted} accepts (the others are not even
     * compiled): what a short-lived command needs when it knows the kinds it will meet.
     */
    public static Loaded parse(List<JsonNode> documents, String origin, Predicate<GroupVersionKind> wanted) {
        return parse(documents, origin, wanted, Jq.standard());
    }

    /**
     * As {@link #parse(List, String, Predicate)}, compiling with {@code jq}: an engine with other
     * {@link dev.cartograph.interpreter.jq.JqLimits} than the default, as a service configures them.
     */
    public static Loaded parse(List<JsonNode> documents, String origin, Predicate<GroupVersionKind> wanted, Jq jq) {
        Map<GroupVersionKind, WorkloadDefinition> map = new LinkedHashMap<>();
        List<Problem> problems = new ArrayList<>();
        for (JsonNode doc : documents) {
            JsonNode k = doc.path("spec")
                    .path("structureDefinition")
                    .path("rootComponent")
                    .path("kind");
            if (k.isObject()
                    && !wanted.test(new GroupVersionKind(
                            k.path("group").asText(""),
                            k.path("version").asText(""),
                            k.path("kind").asText("")))) {
                continue;
            }
            DefinitionParser.Parsed parsed = DefinitionParser.parse(doc, origin, jq);
            problems.addAll(parsed.problems());
            parsed.definition().ifPresent(d -> {
                WorkloadDefinition previous = map.put(d.kind(), d);
                if (previous != null) {
                    problems.add(Problem.warning(
                            d.name(),
                            "spec.structureDefinition.rootComponent.kind",
                            "defines " + d.kind() + " again; it replaces " + previous.name() + " from "
                                    + previous.origin()));
                }
            });
        }
        return new Loaded(new Definitions(map), problems);
    }

    /** Reads definitions from YAML or JSON text. */
    public static Loaded read(InputStream in, String origin) {
        return read(in, origin, kind -> true);
    }

    static Loaded read(InputStream in, String origin, Predicate<GroupVersionKind> wanted) {
        try {
            return parse(Documents.read(in), origin, wanted);
        } catch (IOException | RuntimeException e) {
            return new Loaded(
                    EMPTY,
                    List.of(Problem.error(origin, "", "cannot be read as YAML or JSON: " + firstLine(e.getMessage()))));
        }
    }

    /** Loads a file, or every {@code .yaml}/{@code .yml}/{@code .json} file below a directory. */
    public static Loaded load(Path path) {
        return load(path, kind -> true);
    }

    /** As {@link #load(Path)}, keeping (and compiling) only the kinds {@code wanted} accepts. */
    public static Loaded load(Path path, Predicate<GroupVersionKind> wanted) {
        if (!Files.exists(path)) {
            return new Loaded(EMPTY, List.of(Problem.error(path.toString(), "", "does not exist")));
        }
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> walk = Files.walk(path)) {
                walk.filter(Files::isRegularFile)
                        .filter(Definitions::isDefinitionFile)
                        .sorted()
                        .forEach(files::add);
            } catch (IOException e) {
                return new Loaded(
                        EMPTY, List.of(Problem.error(path.toString(), "", "cannot be listed: " + e.getMessage())));
            }
        } else {
            files.add(path);
        }
        Definitions all = EMPTY;
        List<Problem> problems = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                Loaded loaded = read(in, file.toString(), wanted);
                problems.addAll(loaded.problems());
                all = all.overriddenBy(loaded.definitions());
            } catch (IOException e) {
                problems.add(Problem.error(file.toString(), "", "cannot be read: " + e.getMessage()));
            }
        }
        return new Loaded(all, problems);
    }

    /**
     * Loads every definition file in a classpath folder (inside a jar or a directory), with
     * {@code origin} recorded on each, e.g. {@code catalog}.
     */
    public static Loaded loadClasspath(String folder, ClassLoader classLoader, String origin) {
        return loadClasspath(folder, classLoader, origin, kind -> true);
    }

    /** As {@link #loadClasspath(String, ClassLoader, String)}, keeping only the kinds {@code wanted} accepts. */
    public static Loaded loadClasspath(
            String folder, ClassLoader classLoader, String origin, Predicate<GroupVersionKind> wanted) {
        URL url = classLoader.getResource(folder);
        if (url == null) {
            return new Loaded(EMPTY, List.of(Problem.error(origin, "", "classpath folder " + folder + " not found")));
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
                    return withOrigin(load(fs.getPath(folder), wanted), origin);
                }
            }
            return withOrigin(load(Path.of(uri), wanted), origin);
        } catch (IOException | URISyntaxException e) {
            return new Loaded(
                    EMPTY, List.of(Problem.error(origin, "", "cannot read classpath folder " + folder + ": " + e)));
        } catch (UncheckedIOException e) {
            return new Loaded(
                    EMPTY,
                    List.of(Problem.error(origin, "", "cannot read classpath folder " + folder + ": " + e.getCause())));
        }
    }

    /** These definitions, with {@code overrides}' replacing any of the same kind. */
    public Definitions overriddenBy(Definitions overrides) {
        Map<GroupVersionKind, WorkloadDefinition> map = new LinkedHashMap<>(byKind);
        map.putAll(overrides.byKind);
        return new Definitions(map);
    }

    /**
     * These definitions with a cluster's Karta objects over them, per kind: the one overlay rule of the
     * services and the CLI. Each valid Karta (origin {@link #CLUSTER_ORIGIN}) replaces the definition of
     * its kind; an invalid one is skipped, and its errors say so. Returns the overlaid definitions and
     * the problems of the cluster's Kartas.
     */
    public Loaded overlaidBy(List<JsonNode> clusterKartas) {
        Loaded cluster = parse(clusterKartas, CLUSTER_ORIGIN);
        List<Problem> problems = cluster.problems().stream()
                .map(p -> p.isError()
                        ? Problem.error(p.subject(), p.field(), p.message() + " (cluster definition skipped)")
                        : p)
                .toList();
        return new Loaded(overriddenBy(cluster.definitions()), problems);
    }

    public Optional<WorkloadDefinition> find(GroupVersionKind kind) {
        return Optional.ofNullable(byKind.get(kind));
    }

    /** Definitions of the same group and kind at other versions (to say what is known). */
    public List<WorkloadDefinition> otherVersions(GroupVersionKind kind) {
        return byKind.values().stream()
                .filter(d ->
                        d.kind().group().equals(kind.group()) && d.kind().kind().equals(kind.kind()))
                .filter(d -> !d.kind().equals(kind))
                .toList();
    }

    public Optional<WorkloadDefinition> named(String name) {
        return byKind.values().stream().filter(d -> d.name().equals(name)).findFirst();
    }

    public Collection<WorkloadDefinition> all() {
        return byKind.values();
    }

    public int size() {
        return byKind.size();
    }

    private static Loaded withOrigin(Loaded loaded, String origin) {
        List<WorkloadDefinition> relabeled = loaded.definitions().all().stream()
                .map(d -> d.withOrigin(origin))
                .toList();
        return new Loaded(of(relabeled), loaded.problems());
    }

    private static boolean isDefinitionFile(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
