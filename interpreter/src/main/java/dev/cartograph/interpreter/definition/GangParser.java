package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.JqExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads {@code optimizationInstructions.gangScheduling} in both of its forms. Pure. */
final class GangParser {
    private static final String PATH = "spec.optimizationInstructions.gangScheduling";

    private GangParser() {}

    static List<PodGroupDefinition> parse(JsonNode spec, List<ComponentDefinition> components, Reader r) {
        JsonNode gang = spec.path("optimizationInstructions").path("gangScheduling");
        if (!gang.isObject()) {
            return List.of();
        }
        List<PodGroupDefinition> groups = new ArrayList<>();
        List<JsonNode> podGroups = r.array(gang, "podGroups", PATH);
        for (int i = 0; i < podGroups.size(); i++) {
            String at = PATH + ".podGroups[" + i + "]";
            JsonNode g = podGroups.get(i);
            String name = r.requiredString(g, "name", at).orElse("group-" + i);
            List<PodGroupDefinition.Member> members = new ArrayList<>();
            List<JsonNode> memberNodes = r.array(g, "members", at);
            if (memberNodes.isEmpty()) {
                r.error(at + ".members", "is required and must name at least one component");
            }
            for (int j = 0; j < memberNodes.size(); j++) {
                String mp = at + ".members[" + j + "]";
                JsonNode m = memberNodes.get(j);
                Optional<String> component = r.requiredString(m, "componentName", mp);
                component.ifPresent(c -> checkComponent(c, mp + ".componentName", components, r));
                members.add(new PodGroupDefinition.Member(
                        component.orElse(""),
                        expressions(m, "groupByKeyPaths", mp, r),
                        expressions(m, "filters", mp, r),
                        Optional.empty()));
            }
            groups.add(new PodGroupDefinition(name, members, Optional.empty()));
        }
        r.object(gang, "podGroup", PATH).ifPresent(g -> groups.add(podGroup(g, components, r)));
        return groups;
    }

    private static PodGroupDefinition podGroup(JsonNode g, List<ComponentDefinition> components, Reader r) {
        String at = PATH + ".podGroup";
        String name = r.requiredString(g, "name", at).orElse("podgroup");
        List<PodGroupDefinition.Member> members = new ArrayList<>();
        List<JsonNode> subGroups = r.array(g, "subGroups", at);
        for (int j = 0; j < subGroups.size(); j++) {
            String sp = at + ".subGroups[" + j + "]";
            Optional<String> component = r.requiredString(subGroups.get(j), "componentName", sp);
            component.ifPresent(c -> checkComponent(c, sp + ".componentName", components, r));
            members.add(new PodGroupDefinition.Member(
                    component.orElse(""),
                    List.of(),
                    List.of(),
                    Optional.ofNullable(subGroups.get(j).get("topology"))));
        }
        if (members.isEmpty() && !components.isEmpty()) {
            members.add(
                    new PodGroupDefinition.Member(components.get(0).name(), List.of(), List.of(), Optional.empty()));
        }
        return new PodGroupDefinition(name, members, Optional.ofNullable(g.get("topology")));
    }

    private static void checkComponent(String name, String field, List<ComponentDefinition> components, Reader r) {
        if (!components.isEmpty() && components.stream().noneMatch(c -> c.name().equals(name))) {
            r.error(field, "names component '" + name + "', which does not exist");
        }
    }

    private static List<JqExpression> expressions(JsonNode node, String key, String path, Reader r) {
        List<JqExpression> out = new ArrayList<>();
        List<JsonNode> items = r.array(node, key, path);
        for (int i = 0; i < items.size(); i++) {
            String field = path + "." + key + "[" + i + "]";
            if (!items.get(i).isTextual()) {
                r.error(field, "must be a jq expression (string)");
                continue;
            }
            r.compile(items.get(i).textValue(), field).ifPresent(out::add);
        }
        return out;
    }
}
