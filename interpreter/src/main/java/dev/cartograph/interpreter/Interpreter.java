package dev.cartograph.interpreter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.interpreter.mutate.Mutator;
import dev.cartograph.interpreter.mutate.PodPatch;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resolve.Resolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The interpreter's entry point: resolve any object into a workload view by its kind's definition,
 * rewrite its pod templates, suspend or resume it. Immutable and thread-safe; share one instance.
 *
 * <pre>{@code
 * Definitions defs = Definitions.load(Path.of("catalog")).definitions();
 * Interpreter interpreter = Interpreter.of(defs);
 * if (interpreter.resolve(object) instanceof Resolution.Resolved r) {
 *     long gpus = r.view().totals().gpus();
 * }
 * }</pre>
 */
public final class Interpreter {
    private final Definitions definitions;

    private Interpreter(Definitions definitions) {
        this.definitions = definitions;
    }

    public static Interpreter of(Definitions definitions) {
        return new Interpreter(definitions);
    }

    public Definitions definitions() {
        return definitions;
    }

    /** The definition for an object's apiVersion and kind, if any. */
    public Optional<WorkloadDefinition> definitionFor(JsonNode object) {
        return kindOf(object).flatMap(definitions::find);
    }

    public Resolution resolve(JsonNode object) {
        return resolve(object, true);
    }

    /**
     * As {@link #resolve(JsonNode)}, for an object the caller hands over, such as one it has just
     * parsed: the caller must neither use nor modify it afterwards. The view is the same, but keeps
     * the object's pod templates instead of copying them.
     */
    public Resolution resolveOwned(JsonNode object) {
        return resolve(object, false);
    }

    private Resolution resolve(JsonNode object, boolean copy) {
        Optional<Resolution.Invalid> invalid = checkObject(object);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        GroupVersionKind kind = kindOf(object).orElseThrow();
        Optional<WorkloadDefinition> definition = definitions.find(kind);
        if (definition.isEmpty()) {
            return new Resolution.NoDefinition(
                    Resolver.identity(object),
                    kind,
                    definitions.otherVersions(kind).stream()
                            .map(d -> d.kind().apiVersion())
                            .toList());
        }
        return resolveChecked(object, definition.get(), copy);
    }

    /** Resolves with a given definition, whatever the object's kind says. */
    public Resolution resolve(JsonNode object, WorkloadDefinition definition) {
        Optional<Resolution.Invalid> invalid = checkObject(object);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        return resolveChecked(object, definition, true);
    }

    private static Resolution resolveChecked(JsonNode object, WorkloadDefinition definition, boolean copy) {
        try {
            Resolver.Outcome outcome = Resolver.resolve(definition, object, copy);
            return outcome.rejected()
                    ? new Resolution.Invalid(outcome.problems())
                    : new Resolution.Resolved(outcome.view(), outcome.problems());
        } catch (RuntimeException e) {
            // a defect of ours, not the user's: still a value, with enough to report it
            return new Resolution.Invalid(List.of(Problem.error(
                    Resolver.identity(object).describe(),
                    "",
                    "internal error while interpreting (please report): " + e)));
        }
    }

    /** Applies a pod patch to every pod template, or to one component's ({@code component}). */
    public Mutator.Result patchPods(JsonNode object, PodPatch patch, Optional<String> component) {
        return withDefinition(object, d -> Mutator.patchPods(d, object, patch, component));
    }

    /**
     * Whether the object is suspended, by its definition's suspend actions (see {@link Mutator#suspended}); empty
     * when it has no definition or the definition does not say how to suspend it.
     */
    public Optional<Boolean> suspended(JsonNode object) {
        return definitionFor(object).flatMap(d -> Mutator.suspended(d, object));
    }

    public Mutator.Result suspend(JsonNode object) {
        return withDefinition(object, d -> Mutator.suspend(d, object, true));
    }

    public Mutator.Result resume(JsonNode object) {
        return withDefinition(object, d -> Mutator.suspend(d, object, false));
    }

    private Mutator.Result withDefinition(
            JsonNode object, java.util.function.Function<WorkloadDefinition, Mutator.Result> f) {
        Resolution r = checkObject(object).map(i -> (Resolution) i).orElse(null);
        if (r == null) {
            Optional<WorkloadDefinition> d = definitionFor(object);
            if (d.isPresent()) {
                return f.apply(d.get());
            }
            r = new Resolution.NoDefinition(
                    Resolver.identity(object), kindOf(object).orElseThrow(), List.of());
        }
        return new Mutator.Result(object, 0, r.problems());
    }

    private static Optional<GroupVersionKind> kindOf(JsonNode object) {
        if (object == null || !object.isObject()) {
            return Optional.empty();
        }
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        return apiVersion.isEmpty() || kind.isEmpty()
                ? Optional.empty()
                : Optional.of(GroupVersionKind.of(apiVersion, kind));
    }

    private static Optional<Resolution.Invalid> checkObject(JsonNode object) {
        if (object == null || !object.isObject()) {
            return Optional.of(new Resolution.Invalid(List.of(Problem.error(
                    "input", "", "is not a Kubernetes object (expected a mapping with apiVersion and kind)"))));
        }
        boolean noApiVersion = !object.path("apiVersion").isTextual()
                || object.path("apiVersion").asText().isEmpty();
        boolean noKind =
                !object.path("kind").isTextual() || object.path("kind").asText().isEmpty();
        boolean badMetadata = object.has("metadata") && !object.get("metadata").isObject();
        if (!noApiVersion && !noKind && !badMetadata) {
            return Optional.empty(); // the common case: no need to name the object
        }
        String subject = Resolver.identity(object).describe();
        List<Problem> problems = new ArrayList<>();
        if (noApiVersion) {
            problems.add(Problem.error(subject, "apiVersion", "is required"));
        }
        if (noKind) {
            problems.add(Problem.error(subject, "kind", "is required"));
        }
        if (badMetadata) {
            problems.add(Problem.error(subject, "metadata", "must be a mapping"));
        }
        return Optional.of(new Resolution.Invalid(problems));
    }
}
