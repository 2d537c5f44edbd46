package dev.cartograph.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.PodGroupDefinition;
import dev.cartograph.interpreter.definition.ScaleDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.view.Phase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Generates {@code docs/catalog.md} from the catalog itself, so the page cannot drift from the
 * definitions: the build runs {@link #main} (and a test fails when the committed page is stale).
 * Pure apart from {@code main}.
 */
public final class CatalogDoc {
    private CatalogDoc() {}

    /** {@code CatalogDoc HEADER.md CONFLICTS.yaml OUTPUT.md}: writes the page when its content changed. */
    public static void main(String[] args) throws IOException {
        String page = render(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8), conflicts(Path.of(args[1])));
        Path out = Path.of(args[2]);
        if (!Files.exists(out) || !Files.readString(out, StandardCharsets.UTF_8).equals(page)) {
            Files.writeString(out, page, StandardCharsets.UTF_8);
        }
    }

    /** The recorded events no definition can reproduce, with why, as listed beside the header. */
    public static List<JsonNode> conflicts(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            List<JsonNode> out = new java.util.ArrayList<>();
            Documents.read(in).get(0).path("conflicts").forEach(out::add);
            return out;
        }
    }

    public static String render(String header, List<JsonNode> conflicts) {
        Definitions.Loaded loaded = Catalog.load();
        if (loaded.hasErrors()) {
            throw new IllegalStateException("the catalog has errors: " + loaded.problems());
        }
        List<WorkloadDefinition> defs = loaded.definitions().all().stream()
                .sorted(Comparator.comparing((WorkloadDefinition d) -> d.kind().kind())
                        .thenComparing(WorkloadDefinition::name))
                .toList();
        StringBuilder md = new StringBuilder(header.stripTrailing()).append("\n\n");
        md.append("<!-- Everything below is generated from catalog/src/main/resources/cartograph-catalog by the build"
                + " (dev.cartograph.catalog.CatalogDoc). Do not edit by hand. -->\n\n");
        md.append("## The catalog (").append(defs.size()).append(" definitions)\n\n");
        md.append("| kind | apiVersion | definition | components | gang | statuses mapped | suspend |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (WorkloadDefinition d : defs) {
            md.append("| ")
                    .append(d.kind().kind())
                    .append(" | `")
                    .append(d.kind().apiVersion())
                    .append("` | [`")
                    .append(d.name())
                    .append("`](#")
                    .append(d.name())
                    .append(") | ")
                    .append(d.components().stream()
                            .map(ComponentDefinition::name)
                            .collect(Collectors.joining(", ")))
                    .append(" | ")
                    .append(
                            d.podGroups().isEmpty()
                                    ? "none"
                                    : d.podGroups().stream()
                                            .map(PodGroupDefinition::name)
                                            .collect(Collectors.joining(", ")))
                    .append(" | ")
                    .append(statuses(d))
                    .append(" | ")
                    .append(d.suspend().isPresent() ? "yes" : "no")
                    .append(" |\n");
        }
        for (WorkloadDefinition d : defs) {
            md.append("\n### ").append(d.name()).append("\n\n");
            md.append("`")
                    .append(d.kind().apiVersion())
                    .append(" ")
                    .append(d.kind().kind())
                    .append("` — file `catalog/src/main/resources/cartograph-catalog/")
                    .append(d.name())
                    .append(".yaml`\n\n");
            md.append("| component | owner | pods from | replicas | min | max |\n|---|---|---|---|---|---|\n");
            for (ComponentDefinition c : d.components()) {
                Optional<ScaleDefinition> s = c.scale();
                md.append("| ")
                        .append(c.name())
                        .append(c.instanceIdPath()
                                .map(p -> " (one per " + code(Optional.of(p)) + ")")
                                .orElse(""))
                        .append(" | ")
                        .append(c.ownerRef().orElse("—"))
                        .append(" | ")
                        .append(c.spec().map(CatalogDoc::spec).orElse("— (groups its children)"))
                        .append(" | ")
                        .append(code(s.flatMap(ScaleDefinition::replicasPath)))
                        .append(" | ")
                        .append(code(s.flatMap(ScaleDefinition::minReplicasPath)))
                        .append(" | ")
                        .append(code(s.flatMap(ScaleDefinition::maxReplicasPath)))
                        .append(" |\n");
            }
            md.append("\nStatuses: ").append(statuses(d)).append(". Gang: ");
            md.append(
                    d.podGroups().isEmpty()
                            ? "none (pods are independent)."
                            : d.podGroups().stream()
                                            .map(g -> "`" + g.name() + "` of "
                                                    + g.members().stream()
                                                            .map(m -> m.componentName()
                                                                    + (m.groupByKeyPaths()
                                                                                    .isEmpty()
                                                                            ? ""
                                                                            : " by "
                                                                                    + m.groupByKeyPaths().stream()
                                                                                            .map(k -> "`" + k.source()
                                                                                                    + "`")
                                                                                            .collect(Collectors.joining(
                                                                                                    " + "))))
                                                            .collect(Collectors.joining(", ")))
                                            .collect(Collectors.joining("; "))
                                    + ".");
            md.append(" Suspend: ")
                    .append(d.suspend()
                            .map(s -> s.suspendActions().stream()
                                    .map(a -> "`" + a.path().source() + " = " + a.value() + "`")
                                    .collect(Collectors.joining(", ")))
                            .orElse("not supported"))
                    .append(".\n");
        }
        md.append("\n## Recorded events no definition can reproduce\n\n")
                .append(
                        "Conformance runs every STATE event of `../shared/recorded` against this catalog; these are the only ")
                .append(
                        "exceptions, and the test fails if one stops applying.\n\n| recording | events | why |\n|---|---|---|\n");
        for (JsonNode c : conflicts) {
            md.append("| `")
                    .append(c.path("file").asText())
                    .append("` | ")
                    .append(c.path("events").toString())
                    .append(" | ")
                    .append(c.path("why").asText().strip().replace("\n", " "))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String statuses(WorkloadDefinition d) {
        return List.of(Phase.values()).stream()
                .filter(p -> d.status().mappings().containsKey(p))
                .map(Phase::displayName)
                .collect(Collectors.joining(", "));
    }

    private static String spec(SpecDefinition spec) {
        if (spec instanceof SpecDefinition.PodTemplate t) {
            return "template " + code(Optional.of(t.path()));
        }
        if (spec instanceof SpecDefinition.PodSpec p) {
            return "pod spec " + code(Optional.of(p.podSpecPath()));
        }
        SpecDefinition.Fragmented f = (SpecDefinition.Fragmented) spec;
        return "fragments: "
                + f.paths().keySet().stream()
                        .map(SpecDefinition.Fragment::key)
                        .sorted()
                        .collect(Collectors.joining(", "));
    }

    private static String code(Optional<JqExpression> e) {
        return e.map(x -> "`" + x.source().replace("|", "\\|").replace("\n", " ") + "`")
                .orElse("—");
    }
}
