package dev.cartograph.interpreter.mutate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition;
import dev.cartograph.interpreter.definition.SpecDefinition.Fragment;
import dev.cartograph.interpreter.definition.SuspendDefinition;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.jq.JqResult;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resolve.Resolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rewrites pod templates and applies suspend/resume actions at the paths a definition names,
 * without knowing the workload's shape. Works on a deep copy; every byte it was not asked to change
 * stays as it was. Pure and thread-safe.
 */
public final class Mutator {
    private Mutator() {}

    /** The rewritten object, how many places were changed, and what could not be done. */
    public record Result(JsonNode object, int changed, List<Problem> problems) {
        public Result {
            problems = List.copyOf(problems);
        }
    }

    /** Applies {@code patch} to the pod templates of {@code component}, or of every component when empty. */
    public static Result patchPods(
            WorkloadDefinition definition, JsonNode input, PodPatch patch, Optional<String> component) {
        JsonNode object = input.deepCopy();
        String subject = Resolver.identity(object).describe();
        List<Problem> problems = new ArrayList<>();
        if (component.isPresent() && definition.component(component.get()).isEmpty()) {
            problems.add(Problem.error(
                    subject,
                    "component",
                    "definition " + definition.name() + " has no component '" + component.get() + "'"));
            return new Result(object, 0, problems);
        }
        int changed = 0;
        for (ComponentDefinition c : definition.components()) {
            if (c.spec().isEmpty() || component.isPresent() && !component.get().equals(c.name())) {
                continue;
            }
            Target target = new Target(object, subject, c.field() + ".specDefinition", problems);
            SpecDefinition spec = c.spec().get();
            if (spec instanceof SpecDefinition.PodTemplate t) {
                changed += target.templates(t.path(), patch);
            } else if (spec instanceof SpecDefinition.PodSpec p) {
                changed += target.podSpecs(p, patch);
            } else if (spec instanceof SpecDefinition.Fragmented f) {
                changed += target.fragments(f.paths(), patch);
            }
        }
        return new Result(object, changed, problems);
    }

    /**
     * Whether the object is suspended as its definition says: every place each suspend action names already holds
     * the action's value (so suspending it would change nothing). Empty when the definition has no suspend actions or
     * a path cannot be evaluated on this object.
     */
    public static Optional<Boolean> suspended(WorkloadDefinition definition, JsonNode object) {
        Optional<SuspendDefinition> def = definition.suspend();
        if (def.isEmpty() || def.get().suspendActions().isEmpty()) {
            return Optional.empty();
        }
        for (SuspendDefinition.Action action : def.get().suspendActions()) {
            JqResult paths = action.path().paths(object);
            if (!paths.ok()) {
                return Optional.empty();
            }
            if (paths.values().isEmpty()) {
                return Optional.of(false);
            }
            for (JsonNode path : paths.values()) {
                if (!JsonPaths.get(object, path).map(action.value()::equals).orElse(false)) {
                    return Optional.of(false);
                }
            }
        }
        return Optional.of(true);
    }

    /** Applies the definition's suspend (or resume) actions. */
    public static Result suspend(WorkloadDefinition definition, JsonNode input, boolean suspend) {
        JsonNode object = input.deepCopy();
        String subject = Resolver.identity(object).describe();
        List<Problem> problems = new ArrayList<>();
        Optional<SuspendDefinition> def = definition.suspend();
        if (def.isEmpty()) {
            problems.add(Problem.error(
                    subject,
                    "suspendDefinition",
                    "definition " + definition.name() + " does not say how to " + (suspend ? "suspend" : "resume") + " "
                            + definition.kind().kind()));
            return new Result(object, 0, problems);
        }
        int changed = 0;
        for (SuspendDefinition.Action action :
                suspend ? def.get().suspendActions() : def.get().resumeActions()) {
            JqResult paths = action.path().paths(object);
            if (!paths.ok()) {
                problems.add(Problem.error(
                        subject,
                        "suspendDefinition " + action.path().source(),
                        "is not a path expression: " + paths.error().orElse("")));
                continue;
            }
            for (JsonNode path : paths.values()) {
                changed += JsonPaths.set(object, path, action.value().deepCopy()) ? 1 : 0;
            }
        }
        return new Result(object, changed, problems);
    }

    /** The places of one component in one object copy. */
    private record Target(JsonNode object, String subject, String field, List<Problem> problems) {

        int templates(JqExpression path, PodPatch patch) {
            int n = 0;
            for (JsonNode p : paths(path, "podTemplateSpecPath")) {
                if (JsonPaths.get(object, p).filter(JsonNode::isObject).isEmpty()) {
                    continue;
                }
                boolean touchesMetadata =
                        !patch.labels().isEmpty() || !patch.annotations().isEmpty();
                ObjectNode meta = touchesMetadata ? JsonPaths.objectAt(object, JsonPaths.child(p, "metadata")) : null;
                ObjectNode spec = JsonPaths.objectAt(object, JsonPaths.child(p, "spec"));
                if ((meta != null || !touchesMetadata) && spec != null) {
                    if (meta != null) {
                        metadata(meta, patch);
                    }
                    podSpec(spec, patch);
                    n++;
                }
            }
            return n;
        }

        int podSpecs(SpecDefinition.PodSpec def, PodPatch patch) {
            int n = 0;
            for (JsonNode p : paths(def.podSpecPath(), "podSpecPath")) {
                if (JsonPaths.get(object, p).filter(JsonNode::isObject).isPresent()) {
                    podSpec((ObjectNode) JsonPaths.get(object, p).get(), patch);
                    n++;
                }
            }
            if (def.metadataPath().isPresent()) {
                for (JsonNode p : paths(def.metadataPath().get(), "metadataPath")) {
                    if (JsonPaths.get(object, p).filter(JsonNode::isObject).isPresent()) {
                        metadata((ObjectNode) JsonPaths.get(object, p).get(), patch);
                    }
                }
            } else if (!patch.labels().isEmpty() || !patch.annotations().isEmpty()) {
                problems.add(
                        Problem.warning(subject, field, "has no metadataPath, so labels and annotations are not set"));
            }
            return n;
        }

        int fragments(Map<Fragment, JqExpression> paths, PodPatch patch) {
            int n = 0;
            n += merge(paths.get(Fragment.LABELS), Fragment.LABELS, patch.labels());
            n += merge(paths.get(Fragment.ANNOTATIONS), Fragment.ANNOTATIONS, patch.annotations());
            n += assign(paths.get(Fragment.SCHEDULER_NAME), Fragment.SCHEDULER_NAME, patch.schedulerName());
            n += assign(
                    paths.get(Fragment.PRIORITY_CLASS_NAME), Fragment.PRIORITY_CLASS_NAME, patch.priorityClassName());
            if (!patch.tolerations().isEmpty() || !patch.nodeSelector().isEmpty()) {
                problems.add(Problem.warning(
                        subject,
                        field + ".fragmentedPodSpecDefinition",
                        "has no path for tolerations or nodeSelector, so they are not set"));
            }
            return n;
        }

        private int merge(JqExpression path, Fragment fragment, Map<String, String> entries) {
            if (entries.isEmpty()) {
                return 0;
            }
            if (path == null) {
                problems.add(Problem.warning(
                        subject,
                        field + ".fragmentedPodSpecDefinition." + fragment.key(),
                        "is not defined, so these entries are not set: " + entries.keySet()));
                return 0;
            }
            int n = 0;
            for (JsonNode p : paths(path, fragment.key())) {
                ObjectNode map = JsonPaths.objectAt(object, p);
                if (map != null) {
                    entries.forEach(map::put);
                    n++;
                }
            }
            return n;
        }

        private int assign(JqExpression path, Fragment fragment, Optional<String> value) {
            if (value.isEmpty()) {
                return 0;
            }
            if (path == null) {
                problems.add(Problem.warning(
                        subject,
                        field + ".fragmentedPodSpecDefinition." + fragment.key(),
                        "is not defined, so it is not set"));
                return 0;
            }
            int n = 0;
            for (JsonNode p : paths(path, fragment.key())) {
                n += JsonPaths.set(object, p, TextNode.valueOf(value.get())) ? 1 : 0;
            }
            return n;
        }

        private List<JsonNode> paths(JqExpression expression, String key) {
            JqResult r = expression.paths(object);
            if (!r.ok()) {
                problems.add(Problem.error(
                        subject,
                        field + "." + key,
                        "cannot be written through: " + r.error().orElse("") + " (expression: " + expression.source()
                                + ")"));
                return List.of();
            }
            return r.values();
        }
    }

    private static void metadata(ObjectNode meta, PodPatch patch) {
        mergeInto(meta, "labels", patch.labels());
        mergeInto(meta, "annotations", patch.annotations());
    }

    private static void podSpec(ObjectNode spec, PodPatch patch) {
        patch.schedulerName().ifPresent(s -> spec.put("schedulerName", s));
        patch.priorityClassName().ifPresent(s -> spec.put("priorityClassName", s));
        mergeInto(spec, "nodeSelector", patch.nodeSelector());
        if (!patch.tolerations().isEmpty()) {
            ArrayNode tolerations = spec.path("tolerations").isArray()
                    ? (ArrayNode) spec.get("tolerations")
                    : spec.putArray("tolerations");
            for (JsonNode t : patch.tolerations()) {
                boolean present = false;
                for (JsonNode existing : tolerations) {
                    present |= existing.equals(t);
                }
                if (!present) {
                    tolerations.add(t.deepCopy());
                }
            }
        }
    }

    private static void mergeInto(ObjectNode parent, String key, Map<String, String> entries) {
        if (entries.isEmpty()) {
            return;
        }
        ObjectNode map = parent.path(key).isObject() ? (ObjectNode) parent.get(key) : parent.putObject(key);
        new java.util.TreeMap<>(entries).forEach(map::put);
    }
}
