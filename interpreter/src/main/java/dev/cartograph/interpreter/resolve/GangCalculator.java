package dev.cartograph.interpreter.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.definition.ComponentDefinition;
import dev.cartograph.interpreter.definition.PodGroupDefinition;
import dev.cartograph.interpreter.definition.PodSelectorDefinition;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.jq.JqExpression;
import dev.cartograph.interpreter.jq.JqResult;
import dev.cartograph.interpreter.view.Gang;
import dev.cartograph.interpreter.view.InstanceView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Works out the gangs of a workload from its definition's pod groups, before any pod exists.
 * Pods are grouped by the values of {@code groupByKeyPaths}; when a key is the replica key of a
 * component (its {@code replicaSelector}), every replica of that component is its own gang (each
 * LeaderWorkerSet group); when it is an instance id key, every instance is; otherwise the whole
 * workload is one gang. {@code filters} are evaluated on each instance's pod template. Pure.
 */
final class GangCalculator {
    private final WorkloadDefinition definition;
    private final Map<String, List<InstanceView>> instances;
    private final Findings findings;

    GangCalculator(WorkloadDefinition definition, Map<String, List<InstanceView>> instances, Findings findings) {
        this.definition = definition;
        this.instances = instances;
        this.findings = findings;
    }

    private enum SplitKind {
        NONE,
        INSTANCE,
        REPLICA
    }

    private record Split(SplitKind kind, String component) {}

    Gang compute() {
        List<Gang.Group> groups = new ArrayList<>();
        for (PodGroupDefinition g : definition.podGroups()) {
            Map<Split, List<Gang.Member>> bySplit = new LinkedHashMap<>();
            for (PodGroupDefinition.Member m : g.members()) {
                Split split = split(m);
                for (String componentName : withDescendants(m.componentName())) {
                    for (InstanceView i : instances.getOrDefault(componentName, List.of())) {
                        if (i.hasPods() && passes(m, i, componentName)) {
                            bySplit.computeIfAbsent(split, s -> new ArrayList<>())
                                    .add(new Gang.Member(
                                            componentName, i.id(), i.replicas().min()));
                        }
                    }
                }
            }
            bySplit.forEach((split, members) -> groups.addAll(groups(g.name(), split, members, bySplit.size() > 1)));
        }
        long minMember =
                groups.stream().mapToLong(gr -> gr.count() * gr.minMember()).sum();
        return new Gang(minMember, groups);
    }

    private List<Gang.Group> groups(String name, Split split, List<Gang.Member> members, boolean qualify) {
        String base = qualify && split.kind() != SplitKind.NONE ? name + "/" + split.component() : name;
        switch (split.kind()) {
            case INSTANCE -> {
                return members.stream()
                        .map(m -> new Gang.Group(base + "/" + m.instance(), 1, m.pods(), List.of(m)))
                        .toList();
            }
            case REPLICA -> {
                InstanceView owner = instances.getOrDefault(split.component(), List.of()).stream()
                        .findFirst()
                        .orElse(null);
                long count = owner == null ? 0 : owner.replicas().desired();
                long unitMin = owner == null ? 0 : owner.replicas().min();
                if (unitMin == 0) {
                    return List.of();
                }
                List<Gang.Member> perGang = members.stream()
                        .map(m -> new Gang.Member(m.component(), m.instance(), m.pods() / unitMin))
                        .toList();
                return List.of(new Gang.Group(
                        base,
                        count,
                        perGang.stream().mapToLong(Gang.Member::pods).sum(),
                        perGang));
            }
            default -> {
                return List.of(new Gang.Group(
                        base, 1, members.stream().mapToLong(Gang.Member::pods).sum(), members));
            }
        }
    }

    /** The nearest component (the member or an owner) whose replica or instance key is a group key. */
    private Split split(PodGroupDefinition.Member m) {
        Set<String> keys =
                m.groupByKeyPaths().stream().map(JqExpression::compactSource).collect(Collectors.toSet());
        Optional<ComponentDefinition> c = definition.component(m.componentName());
        while (c.isPresent()) {
            Optional<PodSelectorDefinition> selector = c.get().podSelector();
            if (selector.flatMap(PodSelectorDefinition::replicaKeyPath)
                    .map(e -> keys.contains(e.compactSource()))
                    .orElse(false)) {
                return new Split(SplitKind.REPLICA, c.get().name());
            }
            if (selector.flatMap(PodSelectorDefinition::instanceIdPath)
                    .map(e -> keys.contains(e.compactSource()))
                    .orElse(false)) {
                return new Split(SplitKind.INSTANCE, c.get().name());
            }
            c = c.get().ownerRef().flatMap(definition::component);
        }
        return new Split(SplitKind.NONE, "");
    }

    private List<String> withDescendants(String componentName) {
        List<String> out = new ArrayList<>();
        addWithDescendants(componentName, out);
        return out;
    }

    private void addWithDescendants(String componentName, List<String> out) {
        out.add(componentName);
        for (ComponentDefinition child : definition.children(componentName)) {
            addWithDescendants(child.name(), out);
        }
    }

    private boolean passes(PodGroupDefinition.Member m, InstanceView i, String componentName) {
        if (m.filters().isEmpty()) {
            return true;
        }
        JsonNode template = i.podTemplate().orElseThrow();
        ObjectNode pod =
                JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "Pod");
        pod.set("metadata", template.path("metadata"));
        pod.set("spec", template.path("spec"));
        for (JqExpression filter : m.filters()) {
            JqResult r = filter.evaluate(pod);
            if (!r.ok()) {
                findings.warn(
                        "spec.optimizationInstructions.gangScheduling",
                        "filter " + filter.source() + " failed on " + componentName + "/" + i.id() + ": "
                                + r.error().orElse(""));
                return false;
            }
            if (r.values().size() != 1
                    || !r.values().get(0).isBoolean()
                    || !r.values().get(0).booleanValue()) {
                return false;
            }
        }
        return true;
    }
}
