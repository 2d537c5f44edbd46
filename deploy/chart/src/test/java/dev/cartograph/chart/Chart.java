package dev.cartograph.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The chart under test, driven by Helm's own library (helm-java): {@code template} with value files and
 * {@code --set} pairs, and {@code lint} of the chart as a user would lint it with a value set (helm-java's lint
 * takes no values, so the chart is copied and its values.yaml replaced by the defaults merged with the set).
 * Not thread-safe: one test at a time.
 */
final class Chart {
    static final YAMLMapper YAML = new YAMLMapper();
    static final Path DIR = Path.of("cartograph").toAbsolutePath();
    static final Path EXAMPLES = DIR.resolve("examples");
    /** The repository's root (this module is deploy/chart). */
    static final Path REPO = Path.of("").toAbsolutePath().getParent().getParent();

    static final String RELEASE = "cartograph";
    static final String NAMESPACE = "cartograph-system";

    private Chart() {}

    /** helm template cartograph deploy/chart/cartograph -n cartograph-system -f examples/FILE ... --set K=V ... */
    static Rendered template(List<String> exampleFiles, Map<String, Object> sets) {
        TemplateCommand cmd = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE);
        for (String f : exampleFiles) {
            cmd = cmd.withValuesFile(EXAMPLES.resolve(f));
        }
        for (Map.Entry<String, Object> e : sets.entrySet()) {
            cmd = cmd.set(e.getKey(), e.getValue());
        }
        return Rendered.parse(cmd.call());
    }

    static Rendered template(String exampleFile) {
        return template(List.of(exampleFile), Map.of());
    }

    /** helm lint --strict (warnings fail too) of a copy of the chart whose values.yaml is the chart's defaults overridden by {@code values}. */
    static LintResult lint(JsonNode values, Path scratch) {
        Path copy = scratch.resolve("cartograph");
        copyTree(DIR, copy);
        try {
            JsonNode merged = merge(YAML.readTree(DIR.resolve("values.yaml").toFile()), values);
            YAML.writeValue(copy.resolve("values.yaml").toFile(), merged);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Helm(copy).lint().strict().call();
    }

    static JsonNode example(String file) {
        try {
            return YAML.readTree(EXAMPLES.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The example value sets the chart documents (examples/values-*.yaml). */
    static List<String> examples() {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("values-") && n.endsWith(".yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's rule for values: maps merge key by key, anything else in {@code over} replaces. */
    static JsonNode merge(JsonNode base, JsonNode over) {
        if (!(base instanceof ObjectNode b) || !over.isObject()) {
            return over;
        }
        ObjectNode out = b.deepCopy();
        over.fields()
                .forEachRemaining(e -> out.set(
                        e.getKey(), out.has(e.getKey()) ? merge(out.get(e.getKey()), e.getValue()) : e.getValue()));
        return out;
    }

    static List<JsonNode> readAll(String multiDocYaml) {
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(multiDocYaml)) {
            List<JsonNode> out = new ArrayList<>();
            while (docs.hasNext()) {
                JsonNode d = docs.next();
                if (d != null && d.isObject() && !d.isEmpty()) {
                    out.add(d);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
