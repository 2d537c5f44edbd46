package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads one component of a definition. Pure. */
final class ComponentParser {
    private ComponentParser() {}

    static ComponentDefinition parse(JsonNode node, String path, boolean root, Reader r) {
        String name = r.requiredString(node, "name", path).orElse("");
        Optional<GroupVersionKind> kind = r.object(node, "kind", path).flatMap(k -> kind(k, path + ".kind", r));
        Optional<String> ownerRef = r.string(node, "ownerRef", path);
        Optional<StatusDefinition> status = r.object(node, "statusDefinition", path)
                .flatMap(s -> StatusParser.status(s, path + ".statusDefinition", r));
        Optional<SuspendDefinition> suspend = r.object(node, "suspendDefinition", path)
                .flatMap(s -> StatusParser.suspend(s, path + ".suspendDefinition", r));
        if (root) {
            if (kind.isEmpty() && !node.has("kind")) {
                r.error(path + ".kind", "is required on the root component (group, version and kind)");
            }
            if (!node.has("statusDefinition")) {
                r.error(path + ".statusDefinition", "is required on the root component");
            }
            ownerRef.ifPresent(o -> r.error(path + ".ownerRef", "the root component cannot have an owner"));
            ownerRef = Optional.empty();
        } else {
            status.ifPresent(s -> r.warn(path + ".statusDefinition", "only the root component's status is used"));
            suspend.ifPresent(
                    s -> r.warn(path + ".suspendDefinition", "only the root component's suspend actions are used"));
        }
        Optional<SpecDefinition> spec =
                r.object(node, "specDefinition", path).flatMap(s -> spec(s, path + ".specDefinition", r));
        Optional<ScaleDefinition> scale =
                r.object(node, "scaleDefinition", path).map(s -> scale(s, path + ".scaleDefinition", r));
        Optional<JqExpression> instanceIdPath = r.jq(node, "instanceIdPath", path);
        Optional<PodSelectorDefinition> selector =
                r.object(node, "podSelector", path).map(s -> podSelector(s, path + ".podSelector", r));
        boolean hasInstanceSelector =
                selector.flatMap(PodSelectorDefinition::instanceIdPath).isPresent();
        if (node.has("instanceIdPath") && !hasInstanceSelector) {
            r.error(
                    path + ".podSelector.componentInstanceSelector",
                    "is required when instanceIdPath is set (pods must be attributable to their instance)");
        } else if (!node.has("instanceIdPath") && hasInstanceSelector) {
            r.error(path + ".instanceIdPath", "is required when podSelector.componentInstanceSelector is set");
        }
        return new ComponentDefinition(
                name,
                kind,
                ownerRef,
                spec,
                scale,
                instanceIdPath,
                selector,
                root ? status : Optional.empty(),
                root ? suspend : Optional.empty(),
                path);
    }

    static Optional<GroupVersionKind> kind(JsonNode node, String path, Reader r) {
        Optional<String> group = r.string(node, "group", path);
        Optional<String> version = r.requiredString(node, "version", path);
        Optional<String> kind = r.requiredString(node, "kind", path);
        if (!node.has("group")) {
            r.error(path + ".group", "is required (use \"\" for the core group)");
        }
        if (group.isEmpty()
                || version.isEmpty()
                || kind.isEmpty()
                || version.get().isEmpty()
                || kind.get().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new GroupVersionKind(group.get(), version.get(), kind.get()));
    }

    private static Optional<SpecDefinition> spec(JsonNode node, String path, Reader r) {
        boolean template = node.has("podTemplateSpecPath");
        boolean podSpec = node.has("podSpecPath");
        boolean fragmented = node.has("fragmentedPodSpecDefinition");
        int shapes = (template ? 1 : 0) + (podSpec ? 1 : 0) + (fragmented ? 1 : 0);
        if (shapes != 1) {
            r.error(
                    path,
                    "must have exactly one of podTemplateSpecPath, podSpecPath or fragmentedPodSpecDefinition, found "
                            + shapes);
            return Optional.empty();
        }
        if (node.has("metadataPath") && !podSpec) {
            r.error(path + ".metadataPath", "goes only with podSpecPath");
        }
        if (template) {
            return r.jq(node, "podTemplateSpecPath", path).map(SpecDefinition.PodTemplate::new);
        }
        if (podSpec) {
            Optional<JqExpression> metadata = r.jq(node, "metadataPath", path);
            return r.jq(node, "podSpecPath", path).map(p -> new SpecDefinition.PodSpec(p, metadata));
        }
        return r.object(node, "fragmentedPodSpecDefinition", path)
                .map(f -> fragmented(f, path + ".fragmentedPodSpecDefinition", r));
    }

    private static SpecDefinition fragmented(JsonNode node, String path, Reader r) {
        Map<SpecDefinition.Fragment, JqExpression> paths = new EnumMap<>(SpecDefinition.Fragment.class);
        for (SpecDefinition.Fragment fragment : SpecDefinition.Fragment.values()) {
            r.jq(node, fragment.key(), path).ifPresent(e -> paths.put(fragment, e));
        }
        node.fieldNames().forEachRemaining(key -> {
            if (List.of(SpecDefinition.Fragment.values()).stream()
                    .noneMatch(f -> f.key().equals(key))) {
                r.warn(path + "." + key, "is not a field of fragmentedPodSpecDefinition and is ignored");
            }
        });
        if (paths.isEmpty() && !r.hasErrors()) {
            r.error(path, "names no fragment path");
        }
        return new SpecDefinition.Fragmented(paths);
    }

    private static ScaleDefinition scale(JsonNode node, String path, Reader r) {
        return new ScaleDefinition(
                r.jq(node, "replicasPath", path),
                r.jq(node, "minReplicasPath", path),
                r.jq(node, "maxReplicasPath", path));
    }

    private static PodSelectorDefinition podSelector(JsonNode node, String path, Reader r) {
        Optional<PodSelectorDefinition.TypeSelector> type = r.object(node, "componentTypeSelector", path)
                .map(t -> {
                    String at = path + ".componentTypeSelector";
                    Map<String, String> labels = new LinkedHashMap<>();
                    r.object(t, "matchLabels", at)
                            .ifPresent(m -> m.fields()
                                    .forEachRemaining(e ->
                                            labels.put(e.getKey(), e.getValue().asText())));
                    Optional<JqExpression> keyPath = r.jq(t, "keyPath", at);
                    Optional<String> value = r.string(t, "value", at);
                    if (!t.has("keyPath") && labels.isEmpty()) {
                        r.error(at, "needs keyPath or matchLabels");
                    }
                    if (value.isPresent() && !t.has("keyPath")) {
                        r.error(at + ".value", "needs keyPath");
                    }
                    return new PodSelectorDefinition.TypeSelector(keyPath, value, labels);
                });
        Optional<JqExpression> idPath = r.object(node, "componentInstanceSelector", path)
                .flatMap(s -> {
                    if (!s.has("idPath")) {
                        r.error(path + ".componentInstanceSelector.idPath", "is required");
                    }
                    return r.jq(s, "idPath", path + ".componentInstanceSelector");
                });
        Optional<JqExpression> replicaKey = r.object(node, "replicaSelector", path)
                .flatMap(s -> {
                    if (!s.has("keyPath")) {
                        r.error(path + ".replicaSelector.keyPath", "is required");
                    }
                    return r.jq(s, "keyPath", path + ".replicaSelector");
                });
        return new PodSelectorDefinition(type, idPath, replicaKey);
    }
}
