package dev.cartograph.local.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.cartograph.catalog.Catalog;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.definition.BuiltInKinds;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.kube.crd.CatalogCrds;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The shipped RBAC manifests (deploy/rbac) as documents, and the catalog kinds they must cover. Test helper. */
final class RbacManifests {
    static final Path DIR = Path.of("..", "rbac");

    /** A catalog kind by the name RBAC knows it by. */
    record CatalogResource(String group, String plural, String kinds) {
        String key() {
            return group + "/" + plural;
        }
    }

    private RbacManifests() {}

    static List<Path> files() throws IOException {
        try (var list = Files.list(DIR)) {
            return list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    static String text(String file) throws IOException {
        return Files.readString(DIR.resolve(file));
    }

    static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it =
                new YAMLMapper().readerFor(JsonNode.class).readValues(Files.readString(file))) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && doc.isObject()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    static JsonNode object(String file, String kind, String name) throws IOException {
        return documents(DIR.resolve(file)).stream()
                .filter(d -> kind.equals(d.path("kind").asText())
                        && name.equals(d.path("metadata").path("name").asText()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(file + " has no " + kind + " " + name));
    }

    /**
     * What a role grants, {@code group/resource[/sub]} to verbs, for rules without resourceNames (a rule with
     * them is reported as {@code group/resource[name1,name2]}).
     */
    static Map<String, Set<String>> grants(JsonNode role) {
        Map<String, Set<String>> out = new TreeMap<>();
        for (JsonNode rule : role.path("rules")) {
            String names = rule.has("resourceNames")
                    ? strings(rule.path("resourceNames")).toString()
                    : "";
            for (String group : strings(rule.path("apiGroups"))) {
                for (String resource : strings(rule.path("resources"))) {
                    out.computeIfAbsent(group + "/" + resource + names, k -> new TreeSet<>())
                            .addAll(strings(rule.path("verbs")));
                }
            }
        }
        return out;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Every catalog definition's kind under its served plural: built-ins as Kubernetes names them, CRDs as CatalogCrds. */
    static List<CatalogResource> catalogResources() {
        return CATALOG;
    }

    private static final List<CatalogResource> CATALOG = load();

    private static List<CatalogResource> load() {
        Definitions catalog = Catalog.load().definitions();
        java.util.Collection<WorkloadDefinition> definitions = catalog.all();
        List<CustomResourceDefinition> crds = CatalogCrds.of(catalog);
        Map<String, CatalogResource> byKey = new TreeMap<>();
        for (WorkloadDefinition d : definitions) {
            GroupVersionKind gvk = d.kind();
            String plural = BuiltInKinds.of(gvk)
                    .map(BuiltInKinds.Kind::plural)
                    .or(() -> crdPlural(crds, gvk))
                    .orElseThrow(() -> new AssertionError("no plural for catalog kind " + gvk.qualified()));
            CatalogResource r = new CatalogResource(gvk.group(), plural, gvk.kind());
            byKey.putIfAbsent(r.key(), r);
        }
        return List.copyOf(byKey.values());
    }

    private static Optional<String> crdPlural(List<CustomResourceDefinition> crds, GroupVersionKind gvk) {
        return crds.stream()
                .filter(c -> c.getSpec().getGroup().equals(gvk.group())
                        && c.getSpec().getNames().getKind().equals(gvk.kind()))
                .map(c -> c.getSpec().getNames().getPlural())
                .findFirst();
    }
}
