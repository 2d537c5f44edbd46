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
        return resolve(definition, input, true);
    }

    /**
     * As {@link #resolve(WorkloadDefinition, JsonNode)}; with {@code copy} false the view keeps the
     * object's own pod template nodes, for an object nobody else holds (the caller hands it over).
     */
    public static Outcome resolve(WorkloadDefinition definition, JsonNode input, boolean copy) {
        JsonNode object = input; // read only: jq never writes, and views copy what they keep
        Identity identity = identity(object);
        Findings findings = new Findings(identity.describe(), definition.name());
        InstanceResolver instances = new InstanceResolver(new Evaluations(object, findings), findings, copy);
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

    /**
     * A timestamp as {@link java.time.Instant#parse} reads it. Kubernetes writes them as
     * {@code 2024-05-01T12:34:56Z}, which is read here without the general parser (a large share of
     * resolving an object otherwise); any other form, or a field out of range, goes to it.
     */
    static Optional<java.time.Instant> instant(String text) {
        if (text.length() == 20
                && text.charAt(4) == '-'
                && text.charAt(7) == '-'
                && text.charAt(10) == 'T'
                && text.charAt(13) == ':'
                && text.charAt(16) == ':'
                && text.charAt(19) == 'Z') {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 2);
            int day = digits(text, 8, 2);
            int hour = digits(text, 11, 2);
            int minute = digits(text, 14, 2);
            int second = digits(text, 17, 2);
            if (year >= 0
                    && month >= 1
                    && month <= 12
                    && day >= 1
                    && day <= java.time.YearMonth.of(year, month).lengthOfMonth()
                    && hour >= 0
                    && hour <= 23
                    && minute >= 0
                    && minute <= 59
                    && second >= 0
                    && second <= 59) {
                return Optional.of(java.time.LocalDateTime.of(year, month, day, hour, minute, second)
                        .toInstant(java.time.ZoneOffset.UTC));
            }
        }
        try {
            return Optional.of(java.time.Instant.parse(text));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The decimal number of {@code length} ASCII digits at {@code from}; -1 when one is not a digit. */
    private static int digits(String text, int from, int length) {
        int value = 0;
        for (int i = from; i < from + length; i++) {
            char ch = text.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            value = value * 10 + (ch - '0');
        }
        return value;
    }

    private static Optional<String> text(JsonNode node, String key) {
        return node.path(key).isTextual() && !node.get(key).textValue().isEmpty()
                ? Optional.of(node.get(key).textValue())
                : Optional.empty();
    }
}
