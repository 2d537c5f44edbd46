package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.Jq;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.problem.Problem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@code run.ai/v1alpha1 Karta} document, exactly as Workload Map writes it, into a
 * {@link WorkloadDefinition}, validating it and reporting every problem with its field path.
 * Pure; thread-safe.
 */
public final class DefinitionParser {
    /** The apiVersion and kind of a definition document. */
    public static final String API_VERSION = "run.ai/v1alpha1";

    public static final String KIND = "Karta";
    private static final String STRUCTURE = "spec.structureDefinition";

    private DefinitionParser() {}

    /** The outcome: a definition when there are no errors, and every problem found either way. */
    public record Parsed(String name, Optional<WorkloadDefinition> definition, List<Problem> problems) {
        public Parsed {
            problems = List.copyOf(problems);
        }

        public boolean valid() {
            return definition.isPresent();
        }
    }

    public static Parsed parse(JsonNode doc, String origin, Jq jq) {
        String name = doc.path("metadata").path("name").asText("");
        Reader r = new Reader(name.isEmpty() ? "definition from " + origin : name, jq);
        if (!API_VERSION.equals(doc.path("apiVersion").asText())
                || !KIND.equals(doc.path("kind").asText())) {
            r.error(
                    "",
                    "not a Workload Map definition: expected apiVersion " + API_VERSION + " and kind " + KIND
                            + ", found '" + doc.path("apiVersion").asText() + "' '"
                            + doc.path("kind").asText() + "'");
            return new Parsed(name, Optional.empty(), r.problems());
        }
        if (name.isEmpty()) {
            r.error("metadata.name", "is required");
        }
        JsonNode structure = doc.path("spec").path("structureDefinition");
        if (!structure.isObject()) {
            r.error(STRUCTURE, "is required");
            return new Parsed(name, Optional.empty(), r.problems());
        }
        List<ComponentDefinition> components = new ArrayList<>();
        Optional<JsonNode> rootNode = r.object(structure, "rootComponent", STRUCTURE);
        if (rootNode.isEmpty()) {
            r.error(STRUCTURE + ".rootComponent", "is required");
        } else {
            components.add(ComponentParser.parse(rootNode.get(), STRUCTURE + ".rootComponent", true, r));
        }
        List<JsonNode> children = r.array(structure, "childComponents", STRUCTURE);
        for (int i = 0; i < children.size(); i++) {
            components.add(ComponentParser.parse(children.get(i), STRUCTURE + ".childComponents[" + i + "]", false, r));
        }
        List<GroupVersionKind> extraKinds = new ArrayList<>();
        List<JsonNode> extra = r.array(structure, "additionalChildKinds", STRUCTURE);
        for (int i = 0; i < extra.size(); i++) {
            ComponentParser.kind(extra.get(i), STRUCTURE + ".additionalChildKinds[" + i + "]", r)
                    .ifPresent(extraKinds::add);
        }
        List<ComponentDefinition> ordered = checkTree(components, r);
        List<PodGroupDefinition> groups = GangParser.parse(doc.path("spec"), components, r);
        if (r.hasErrors() || ordered.isEmpty()) {
            return new Parsed(name, Optional.empty(), r.problems());
        }
        return new Parsed(
                name,
                Optional.of(new WorkloadDefinition(name, origin, ordered, extraKinds, groups, doc)),
                r.problems());
    }

    /** Unique names, owners exist, no cycles; returns the components root first, owners before children. */
    private static List<ComponentDefinition> checkTree(List<ComponentDefinition> components, Reader r) {
        Map<String, ComponentDefinition> byName = new LinkedHashMap<>();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < components.size(); i++) {
            ComponentDefinition c = components.get(i);
            String field =
                    i == 0 ? STRUCTURE + ".rootComponent.name" : STRUCTURE + ".childComponents[" + (i - 1) + "].name";
            if (byName.putIfAbsent(c.name(), c) != null) {
                r.error(field, "component name '" + c.name() + "' is used more than once");
            }
            index.putIfAbsent(c.name(), i - 1);
        }
        List<ComponentDefinition> ordered = new ArrayList<>();
        if (components.isEmpty()) {
            return ordered;
        }
        ordered.add(components.get(0));
        for (ComponentDefinition c : components.subList(1, components.size())) {
            String field = STRUCTURE + ".childComponents[" + index.get(c.name()) + "].ownerRef";
            Optional<String> owner = c.ownerRef();
            if (owner.isEmpty()) {
                r.error(field, "is required on a child component (only the root has no owner)");
            } else if (!byName.containsKey(owner.get())) {
                r.error(field, "names component '" + owner.get() + "', which does not exist");
            } else if (leadsToCycle(c, byName)) {
                r.error(field, "component '" + c.name() + "' is its own ancestor (cycle through ownerRef)");
            }
        }
        appendChildren(components.get(0).name(), components, ordered);
        return r.hasErrors() ? List.of() : ordered;
    }

    private static boolean leadsToCycle(ComponentDefinition start, Map<String, ComponentDefinition> byName) {
        ComponentDefinition current = start;
        for (int hops = 0; hops <= byName.size(); hops++) {
            Optional<String> owner = current.ownerRef();
            if (owner.isEmpty() || !byName.containsKey(owner.get())) {
                return false;
            }
            if (owner.get().equals(start.name())) {
                return true;
            }
            current = byName.get(owner.get());
        }
        return true;
    }

    private static void appendChildren(String owner, List<ComponentDefinition> all, List<ComponentDefinition> out) {
        for (ComponentDefinition c : all) {
            if (c.ownerRef().filter(owner::equals).isPresent() && !out.contains(c)) {
                out.add(c);
                appendChildren(c.name(), all, out);
            }
        }
    }
}
