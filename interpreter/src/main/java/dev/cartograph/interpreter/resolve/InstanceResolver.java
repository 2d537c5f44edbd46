package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.ScaleDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition.Fragment;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.resources.PodRequests;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.Replicas;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves one component of one object into its instances: ids zipped by index with the spec and
 * scale paths, pod templates, per-pod requests, and replicas multiplied by the owner's scale.
 * Not thread-safe: one per resolution.
 */
final class InstanceResolver {
    private final Evaluations eval;
    private final Findings findings;

    InstanceResolver(Evaluations eval, Findings findings) {
        this.eval = eval;
        this.findings = findings;
    }

    /** How an owner scales its children: its desired, minimum and maximum pods per unit. */
    record Multiplier(long desired, long min, Optional<Long> max) {
        static final Multiplier ONE = new Multiplier(1, 1, Optional.of(1L));
    }

    List<InstanceView> resolve(ComponentDefinition c, Multiplier owner) {
        String at = c.field();
        List<String> ids = instanceIds(c);
        if (ids == null) {
            return List.of();
        }
        int n = ids.size();
        Optional<ScaleDefinition> scale = c.scale();
        Optional<List<JsonNode>> replicas = eval.aligned(scale.flatMap(ScaleDefinition::replicasPath), n, at + ".scaleDefinition.replicasPath");
        Optional<List<JsonNode>> mins = eval.aligned(scale.flatMap(ScaleDefinition::minReplicasPath), n, at + ".scaleDefinition.minReplicasPath");
        Optional<List<JsonNode>> maxes = eval.aligned(scale.flatMap(ScaleDefinition::maxReplicasPath), n, at + ".scaleDefinition.maxReplicasPath");
        Optional<List<Optional<JsonNode>>> templates = templates(c, n);
        if (replicas.isEmpty() || mins.isEmpty() || maxes.isEmpty() || templates.isEmpty()) {
            return List.of();
        }
        List<InstanceView> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Optional<JsonNode> template = templates.get().get(i);
            JsonNode replicasValue = Evaluations.at(replicas.get(), i);
            if (c.spec().isPresent() && template.isEmpty() && replicasValue.isNull()) {
                continue; // the object does not have this optional component
            }
            Optional<Long> desired = count(replicasValue, at + ".scaleDefinition.replicasPath");
            Optional<Long> min = count(Evaluations.at(mins.get(), i), at + ".scaleDefinition.minReplicasPath");
            Optional<Long> max = count(Evaluations.at(maxes.get(), i), at + ".scaleDefinition.maxReplicasPath");
            long own = desired.orElse(min.filter(m -> m > 0).orElse(1L));
            long ownMin = min.filter(m -> m > 0).orElse(own);
            Replicas total = new Replicas(own * owner.desired(), ownMin * owner.min(),
                    max.flatMap(m -> owner.max().map(om -> m * om)));
            out.add(instance(ids.get(i), total, template, at));
        }
        return out;
    }

    /** Instance ids from instanceIdPath; one unnamed instance without it; null when unusable. */
    private List<String> instanceIds(ComponentDefinition c) {
        if (c.instanceIdPath().isEmpty()) {
            return List.of(c.name());
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode id : eval.all(c.instanceIdPath().get(), c.field() + ".instanceIdPath")) {
            if (id.isNull() || id.asText().isEmpty() || id.isContainerNode()) {
                findings.error(c.field() + ".instanceIdPath", "instance " + ids.size() + " has no usable id ("
                        + id + ")");
                return null;
            }
            ids.add(id.asText());
        }
        return ids;
    }

    private Optional<List<Optional<JsonNode>>> templates(ComponentDefinition c, int n) {
        if (c.spec().isEmpty()) {
            List<Optional<JsonNode>> none = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                none.add(Optional.empty());
            }
            return Optional.of(none);
        }
        String at = c.field() + ".specDefinition";
        SpecDefinition spec = c.spec().get();
        if (spec instanceof SpecDefinition.PodTemplate t) {
            return eval.aligned(Optional.of(t.path()), n, at + ".podTemplateSpecPath")
                    .map(v -> perInstance(n, i -> PodTemplates.fromTemplate(Evaluations.at(v, i))));
        }
        if (spec instanceof SpecDefinition.PodSpec p) {
            Optional<List<JsonNode>> specs = eval.aligned(Optional.of(p.podSpecPath()), n, at + ".podSpecPath");
            Optional<List<JsonNode>> metas = eval.aligned(p.metadataPath(), n, at + ".metadataPath");
            if (specs.isEmpty() || metas.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(perInstance(n, i -> PodTemplates.fromPodSpec(Evaluations.at(specs.get(), i),
                    Evaluations.at(metas.get(), i))));
        }
        SpecDefinition.Fragmented f = (SpecDefinition.Fragmented) spec;
        Map<Fragment, List<JsonNode>> located = new EnumMap<>(Fragment.class);
        for (Map.Entry<Fragment, JqExpression> e : f.paths().entrySet()) {
            Optional<List<JsonNode>> values = eval.aligned(Optional.of(e.getValue()), n,
                    at + ".fragmentedPodSpecDefinition." + e.getKey().key());
            if (values.isEmpty()) {
                return Optional.empty();
            }
            located.put(e.getKey(), values.get());
        }
        return Optional.of(perInstance(n, i -> {
            Map<Fragment, JsonNode> fragments = new EnumMap<>(Fragment.class);
            located.forEach((k, v) -> fragments.put(k, Evaluations.at(v, i)));
            return PodTemplates.fromFragments(fragments);
        }));
    }

    private static List<Optional<JsonNode>> perInstance(int n, java.util.function.IntFunction<Optional<JsonNode>> f) {
        List<Optional<JsonNode>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(f.apply(i));
        }
        return out;
    }

    private InstanceView instance(String id, Replicas replicas, Optional<JsonNode> template, String at) {
        if (template.isEmpty()) {
            return new InstanceView(id, replicas, template, ResourceList.EMPTY, Map.of(),
                    com.fasterxml.jackson.databind.node.NullNode.getInstance(), List.of(), Optional.empty(), Optional.empty());
        }
        // the view keeps only its own copy of the template, never a node of the caller's object
        JsonNode own = template.get().deepCopy();
        template = Optional.of(own);
        JsonNode spec = own.path("spec");
        PodRequests.Result requests = PodRequests.of(spec);
        requests.problems().forEach(p -> findings.error("pod template of " + at + " instance " + id, p));
        Map<String, String> nodeSelector = new LinkedHashMap<>();
        spec.path("nodeSelector").fields().forEachRemaining(e -> nodeSelector.put(e.getKey(), e.getValue().asText()));
        List<JsonNode> tolerations = new ArrayList<>();
        spec.path("tolerations").forEach(tolerations::add);
        return new InstanceView(id, replicas, template, requests.request(), nodeSelector,
                spec.path("affinity").isObject() ? spec.get("affinity") : com.fasterxml.jackson.databind.node.NullNode.getInstance(),
                tolerations, text(spec, "priorityClassName"), text(spec, "schedulerName"));
    }

    private static Optional<String> text(JsonNode node, String key) {
        return node.path(key).isTextual() ? Optional.of(node.get(key).textValue()) : Optional.empty();
    }

    /** A replica count: a whole number or numeric text; null is absent; anything else is reported. */
    private Optional<Long> count(JsonNode value, String field) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return Optional.empty();
        }
        try {
            java.math.BigDecimal number = value.isNumber() ? value.decimalValue()
                    : value.isTextual() ? new java.math.BigDecimal(value.textValue().strip()) : null;
            if (number != null && number.signum() >= 0 && number.stripTrailingZeros().scale() <= 0) {
                return Optional.of(number.longValueExact());
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        findings.error(field, "is not a replica count: " + value);
        return Optional.empty();
    }
}
