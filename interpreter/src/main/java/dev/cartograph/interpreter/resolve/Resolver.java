package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resources.Ceilings;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.Gang;
import dev.cartograph.interpreter.view.Identity;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.StatusView;
import dev.cartograph.interpreter.view.Totals;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves an object against its definition into a {@link WorkloadView}. Pure and thread-safe: it
 * only reads the object (which must not be modified while it runs) and returns new immutable
 * values that share no nodes with it.
 */
public final class Resolver {
    private Resolver() {}

    /**
     * The view and every problem met on the way; problems never stop the rest of the view.
     *
     * @param rejected true when the object asks for amounts no cluster could honour (see
     *                 {@link dev.cartograph.interpreter.resources.Ceilings}): the view is then only
     *                 as good as the amounts it capped, and callers should not act on it
     */
    public record Outcome(WorkloadView view, List<Problem> problems, boolean rejected) {
        public Outcome {
            problems = List.copyOf(problems);
        }

        public Outcome(WorkloadView view, List<Problem> problems) {
            this(view, problems, false);
        }
    }

    public static Identity identity(JsonNode object) {
        JsonNode meta = object.path("metadata");
        return new Identity(
                object.path("apiVersion").asText(""),
                object.path("kind").asText(""),
                meta.path("name").asText(meta.path("generateName").asText("")),
                text(meta, "namespace"),
                text(meta, "uid"),
                text(meta, "creationTimestamp").flatMap(Resolver::instant));
    }

    public static Outcome resolve(WorkloadDefinition definition, JsonNode input) {
        JsonNode object = input; // read only: jq never writes, and views copy what they keep
        Identity identity = identity(object);
        Findings findings = new Findings(identity.describe(), definition.name());
        InstanceResolver instances = new InstanceResolver(new Evaluations(object, findings), findings);
        Map<String, List<InstanceView>> byComponent = new HashMap<>();
        for (ComponentDefinition c : definition.components()) {
            InstanceResolver.Multiplier owner = c.ownerRef()
                    .map(o -> multiplier(c, byComponent.getOrDefault(o, List.of()), findings))
                    .orElse(InstanceResolver.Multiplier.ONE);
            byComponent.put(c.name(), instances.resolve(c, owner));
        }
        ComponentView root = tree(definition, definition.root(), byComponent);
        long pods = 0;
        ResourceList resources = ResourceList.EMPTY;
        for (List<InstanceView> list : byComponent.values()) {
            for (InstanceView i : list) {
                if (i.hasPods()) {
                    pods += i.replicas().desired();
                    resources = resources.plus(i.perPod().times(i.replicas().desired()));
                }
            }
        }
        // instances beyond the ceilings were rejected already; this is for many instances together
        for (String beyond : findings.rejected() ? List.<String>of() : Ceilings.checkTotal(resources)) {
            findings.reject(definition.root().field(), "the workload's " + pods + " pods together: " + beyond);
        }
        Gang gang = new GangCalculator(definition, byComponent, findings).compute();
        StatusView status = StatusEvaluator.evaluate(definition.status(), object);
        WorkloadView view = new WorkloadView(
                identity, definition.name(), definition.origin(), root, new Totals(pods, resources), gang, status);
        return new Outcome(view, findings.problems(), findings.rejected());
    }

    private static InstanceResolver.Multiplier multiplier(
            ComponentDefinition child, List<InstanceView> owner, Findings findings) {
        if (owner.isEmpty()) {
            return new InstanceResolver.Multiplier(0, 0, Optional.of(0L));
        }
        if (owner.size() > 1) {
            findings.error(
                    child.field() + ".ownerRef",
                    "owner '" + child.ownerRef().orElse("") + "' has " + owner.size()
                            + " instances, so its scale cannot multiply this component's; counted once");
            return InstanceResolver.Multiplier.ONE;
        }
        InstanceView o = owner.get(0);
        return new InstanceResolver.Multiplier(
                o.replicas().desired(),
                o.replicas().min(),
                Optional.of(o.replicas().max().orElse(o.replicas().desired())));
    }

    private static ComponentView tree(
            WorkloadDefinition definition, ComponentDefinition c, Map<String, List<InstanceView>> byComponent) {
        List<ComponentView> children = new ArrayList<>();
        for (ComponentDefinition child : definition.children(c.name())) {
            children.add(tree(definition, child, byComponent));
        }
        return new ComponentView(c.name(), c.kind(), byComponent.getOrDefault(c.name(), List.of()), children);
    }

    private static Optional<java.time.Instant> instant(String text) {
        try {
            return Optional.of(java.time.Instant.parse(text));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> text(JsonNode node, String key) {
        return node.path(key).isTextual() && !node.get(key).textValue().isEmpty()
                ? Optional.of(node.get(key).textValue())
                : Optional.empty();
    }
}
