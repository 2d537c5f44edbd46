package dev.cartograph.interpreter.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One pod template being checked: its spec and metadata, where they are in the object, and the violations
 * found so far. Not thread-safe: one per template and check.
 */
final class Template {
    /** One container of the pod spec and where it is: {@code initContainers[0]}, {@code containers[1]}… */
    record Container(String field, String name, JsonNode node) {
        JsonNode securityContext() {
            return node.path("securityContext");
        }

        /** {@code container 'name'}, as reasons name it. */
        String describe() {
            return "container '" + name + "'";
        }
    }

    private final String object;
    private final JsonNode spec;
    private final JsonNode metadata;
    private final String specField;
    private final String metadataField;
    private final List<Violation> violations = new ArrayList<>();

    Template(String object, JsonNode template, String specField, String metadataField) {
        this.object = object;
        this.spec = template.path("spec");
        this.metadata = template.path("metadata");
        this.specField = specField;
        this.metadataField = metadataField;
    }

    JsonNode spec() {
        return spec;
    }

    JsonNode metadata() {
        return metadata;
    }

    /** Init, regular and ephemeral containers, in that order (as the upstream checks visit them). */
    List<Container> containers() {
        List<Container> out = new ArrayList<>();
        for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
            JsonNode items = spec.path(list);
            for (int i = 0; i < items.size(); i++) {
                JsonNode c = items.get(i);
                if (c.isObject()) {
                    out.add(new Container(list + "[" + i + "]", c.path("name").asText("#" + i), c));
                }
            }
        }
        return out;
    }

    /** The pod spec asks for a user namespace ({@code hostUsers: false}): some restricted checks relax. */
    boolean inUserNamespace() {
        return isFalse(spec.path("hostUsers"));
    }

    /** The pod spec says it runs on Windows ({@code os.name: windows}): some restricted checks do not apply. */
    boolean windows() {
        return spec.path("os").path("name").asText("").equals("windows");
    }

    /** Records a violation at {@code field}, a path inside the pod spec. */
    void refuse(String field, String check, String reason) {
        violations.add(new Violation(object, join(specField, field), check, reason));
    }

    /** Records a violation at {@code field}, a path inside the pod template's metadata. */
    void refuseMetadata(String field, String check, String reason) {
        violations.add(new Violation(object, join(metadataField, field), check, reason));
    }

    /** Cartograph's own rule, at every level: the template must not name its node, or placement is bypassed. */
    void nodeName() {
        String node = spec.path("nodeName").asText("");
        if (!node.isEmpty()) {
            refuse(
                    "nodeName",
                    "nodeName",
                    "names node '" + node + "' itself, which would bypass placement; use a nodeSelector or"
                            + " node affinity instead");
        }
    }

    List<Violation> violations() {
        return List.copyOf(violations);
    }

    /** A boolean field set to true (JSON true, or the text {@code true} a lenient reader might keep). */
    static boolean isTrue(JsonNode node) {
        return node.isBoolean()
                ? node.booleanValue()
                : node.isTextual() && node.textValue().equalsIgnoreCase("true");
    }

    static boolean isFalse(JsonNode node) {
        return node.isBoolean()
                ? !node.booleanValue()
                : node.isTextual() && node.textValue().equalsIgnoreCase("false");
    }

    /** A field that is present and not null. */
    static boolean isSet(JsonNode node) {
        return !node.isMissingNode() && !node.isNull();
    }

    private static String join(String prefix, String field) {
        if (prefix.isEmpty() || field.isEmpty()) {
            return prefix + field;
        }
        return prefix.endsWith(" ") || field.startsWith("[") ? prefix + field : prefix + "." + field;
    }
}
