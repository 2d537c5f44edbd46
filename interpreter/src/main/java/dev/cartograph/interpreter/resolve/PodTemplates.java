package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.definition.SpecDefinition.Fragment;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a uniform pod template {@code {metadata, spec}} from what a spec definition located.
 * Pure; returns new nodes and never modifies its inputs' contents.
 */
final class PodTemplates {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PodTemplates() {}

    /** A pod template located as such ({@code podTemplateSpecPath}); a bare Pod is a template too. */
    static Optional<JsonNode> fromTemplate(JsonNode template) {
        if (!template.isObject()) {
            return Optional.empty();
        }
        ObjectNode out = F.objectNode();
        out.set("metadata", template.path("metadata").isObject() ? template.get("metadata") : F.objectNode());
        out.set("spec", template.path("spec").isObject() ? template.get("spec") : F.objectNode());
        return Optional.of(out);
    }

    /** A pod spec with metadata located beside it ({@code podSpecPath} + {@code metadataPath}). */
    static Optional<JsonNode> fromPodSpec(JsonNode spec, JsonNode metadata) {
        if (!spec.isObject()) {
            return Optional.empty();
        }
        ObjectNode meta = F.objectNode();
        if (metadata.isObject()) {
            copyIfObject(metadata, "labels", meta);
            copyIfObject(metadata, "annotations", meta);
        }
        ObjectNode out = F.objectNode();
        out.set("metadata", meta);
        out.set("spec", spec);
        return Optional.of(out);
    }

    /**
     * A pod spec assembled from fragments, as Workload Map reads them: containers from
     * {@code containersPath} and {@code containerPath} together; {@code resourcesPath} (and
     * {@code imagePath}) describe the one container when no located container states resources.
     * Empty when every fragment is absent.
     */
    static Optional<JsonNode> fromFragments(Map<Fragment, JsonNode> values) {
        if (values.values().stream().allMatch(v -> v == null || v.isNull() || v.isMissingNode())) {
            return Optional.empty();
        }
        ObjectNode spec = F.objectNode();
        ArrayNode containers = F.arrayNode();
        JsonNode list = values.get(Fragment.CONTAINERS);
        if (list != null && list.isArray()) {
            list.forEach(c -> {
                if (c.isObject()) {
                    containers.add(c);
                }
            });
        }
        JsonNode single = values.get(Fragment.CONTAINER);
        if (single != null && single.isObject()) {
            containers.add(single);
        }
        boolean statesResources = false;
        for (JsonNode c : containers) {
            statesResources |=
                    c.path("resources").isObject() && !c.path("resources").isEmpty();
        }
        JsonNode resources = values.get(Fragment.RESOURCES);
        JsonNode image = values.get(Fragment.IMAGE);
        if (!statesResources && resources != null && resources.isObject()) {
            ObjectNode main = F.objectNode().put("name", "main");
            if (image != null && image.isTextual()) {
                main.set("image", image);
            }
            main.set("resources", resources);
            containers.add(main);
        }
        spec.set("containers", containers);
        setIfPresent(spec, "schedulerName", values.get(Fragment.SCHEDULER_NAME));
        setIfPresent(spec, "priorityClassName", values.get(Fragment.PRIORITY_CLASS_NAME));
        setIfPresent(spec, "resourceClaims", values.get(Fragment.RESOURCE_CLAIMS));
        ObjectNode affinity = F.objectNode();
        setIfPresent(affinity, "podAffinity", values.get(Fragment.POD_AFFINITY));
        setIfPresent(affinity, "nodeAffinity", values.get(Fragment.NODE_AFFINITY));
        if (!affinity.isEmpty()) {
            spec.set("affinity", affinity);
        }
        ObjectNode meta = F.objectNode();
        setIfPresent(meta, "labels", values.get(Fragment.LABELS));
        setIfPresent(meta, "annotations", values.get(Fragment.ANNOTATIONS));
        ObjectNode out = F.objectNode();
        out.set("metadata", meta);
        out.set("spec", spec);
        return Optional.of(out);
    }

    private static void copyIfObject(JsonNode from, String key, ObjectNode to) {
        if (from.path(key).isObject()) {
            to.set(key, from.get(key));
        }
    }

    private static void setIfPresent(ObjectNode to, String key, JsonNode value) {
        if (value != null && !value.isNull() && !value.isMissingNode()) {
            to.set(key, value);
        }
    }
}
