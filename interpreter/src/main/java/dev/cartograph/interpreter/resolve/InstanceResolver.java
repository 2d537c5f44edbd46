package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.ScaleDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition.Fragment;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.resources.Ceilings;
import dev.cartograph.interpreter.resources.PodRequests;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.NodeConstraints;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.Replicas;
import java.util.ArrayList;
import java.util.EnumMap;
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
    private final ReplicaCounts counts;
    private final boolean copyTemplates;

    /** {@code copyTemplates}: false only for an object nobody else holds, whose nodes views may then keep. */
    InstanceResolver(Evaluations eval, Findings findings, boolean copyTemplates) {
        this.eval = eval;
        this.findings = findings;
        this.counts = new ReplicaCounts(eval, findings);
        this.copyTemplates = copyTemplates;
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
        Optional<List<JsonNode>> replicas =
                eval.aligned(scale.flatMap(ScaleDefinition::replicasPath), n, at + ".scaleDefinition.replicasPath");
        Optional<List<JsonNode>> mins = eval.aligned(
                scale.flatMap(ScaleDefinition::minReplicasPath), n, at + ".scaleDefinition.minReplicasPath");
        Optional<List<JsonNode>> maxes = eval.aligned(
                scale.flatMap(ScaleDefinition::maxReplicasPath), n, at + ".scaleDefinition.maxReplicasPath");
        Optional<List<Optional<JsonNode>>> templates = templates(c, n);
        if (replicas.isEmpty() || mins.isEmpty() || maxes.isEmpty() || templates.isEmpty()) {
            return List.of();
        }
        Locations locations = locations(c, n);
        List<InstanceView> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Optional<JsonNode> template = templates.get().get(i);
            JsonNode replicasValue = Evaluations.at(replicas.get(), i);
            if (c.spec().isPresent() && template.isEmpty() && replicasValue.isNull()) {
                continue; // the object does not have this optional component
            }
            String replicasField = at + ".scaleDefinition.replicasPath";
            ReplicaCounts.Scale own = counts.read(c, replicas.get(), mins.get(), maxes.get(), i, n);
            Replicas total = counts.scale(own, owner, replicasField);
            InstanceView view = instance(
                    ids.get(i),
                    total,
                    template,
                    c,
                    locations.spec().get(i),
                    locations.metadata().get(i));
            checkTotals(view, replicasField);
            out.add(view);
        }
        return out;
    }

    /** Pods × what each asks for must stay countable (see {@link Ceilings}). */
    private void checkTotals(InstanceView view, String replicasField) {
        if (view.hasPods()) {
            long pods = view.replicas().desired();
            for (String beyond : Ceilings.checkTotal(view.perPod(), pods)) {
                findings.reject(replicasField, pods + " pods of instance " + view.id() + ": " + beyond);
            }
        }
    }

    /** Instance ids from instanceIdPath; one unnamed instance without it; null when unusable. */
    private List<String> instanceIds(ComponentDefinition c) {
        if (c.instanceIdPath().isEmpty()) {
            return List.of(c.name());
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode id : eval.all(c.instanceIdPath().get(), c.field() + ".instanceIdPath")) {
            if (id.isNull() || id.asText().isEmpty() || id.isContainerNode()) {
                findings.error(
                        c.field() + ".instanceIdPath", "instance " + ids.size() + " has no usable id (" + id + ")");
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
            return Optional.of(perInstance(
                    n, i -> PodTemplates.fromPodSpec(Evaluations.at(specs.get(), i), Evaluations.at(metas.get(), i))));
        }
        SpecDefinition.Fragmented f = (SpecDefinition.Fragmented) spec;
        Map<Fragment, List<JsonNode>> located = new EnumMap<>(Fragment.class);
        for (Map.Entry<Fragment, JqExpression> e : f.paths().entrySet()) {
            Optional<List<JsonNode>> values = eval.aligned(
                    Optional.of(e.getValue()),
                    n,
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

    private InstanceView instance(
            String id,
            Replicas replicas,
            Optional<JsonNode> template,
            ComponentDefinition c,
            Optional<String> specField,
            Optional<String> metadataField) {
        if (template.isEmpty()) {
            return new InstanceView(
                    id,
                    replicas,
                    template,
                    ResourceList.EMPTY,
                    NodeConstraints.NONE,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty());
        }
        // the view keeps only its own copy of the template, never a node of the caller's object
        JsonNode own = copyTemplates ? template.get().deepCopy() : template.get();
        template = Optional.of(own);
        JsonNode spec = own.path("spec");
        PodRequests.Result requests = PodRequests.of(spec);
        if (!requests.issues().isEmpty()) {
            for (PodRequests.Issue issue : requests.issues()) {
                if (specField.isPresent()) {
                    findings.reject(join(specField.get(), issue.field()), issue.message());
                } else {
                    findings.reject("pod template of " + c.field() + " instance " + id, issue.toString());
                }
            }
        }
        return new InstanceView(
                id,
                replicas,
                template,
                requests.request(),
                NodeConstraints.of(spec),
                text(spec, "priorityClassName"),
                text(spec, "schedulerName"),
                specField,
                metadataField);
    }

    private static Optional<String> text(JsonNode node, String key) {
        return node.path(key).isTextual() ? Optional.of(node.get(key).textValue()) : Optional.empty();
    }

    /** Where each instance's pod spec and metadata are in the object, one entry per instance (empty: no one place). */
    private record Locations(List<Optional<String>> spec, List<Optional<String>> metadata) {}

    private Locations locations(ComponentDefinition c, int instances) {
        List<Optional<String>> none = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            none.add(Optional.empty());
        }
        Optional<SpecDefinition> spec = c.spec();
        if (spec.isPresent() && spec.get() instanceof SpecDefinition.PodTemplate t) {
            List<Optional<String>> templates = eval.objectPaths(t.path(), instances);
            return new Locations(
                    templates.stream().map(p -> p.map(f -> join(f, "spec"))).toList(),
                    templates.stream().map(p -> p.map(f -> join(f, "metadata"))).toList());
        }
        if (spec.isPresent() && spec.get() instanceof SpecDefinition.PodSpec p) {
            return new Locations(
                    eval.objectPaths(p.podSpecPath(), instances),
                    p.metadataPath().map(m -> eval.objectPaths(m, instances)).orElse(none));
        }
        return new Locations(none, none); // assembled from fragments: no one place in the object
    }

    private static String join(String field, String step) {
        if (field.isEmpty() || step.isEmpty()) {
            return field + step;
        }
        return step.startsWith("[") ? field + step : field + "." + step;
    }
}
