package dev.cartograph.interpreter.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.List;
import java.util.Optional;

/**
 * A loaded, validated Workload Map definition (a {@code Karta}): the component tree of one workload
 * kind, its status mappings, suspend actions and gang instructions, with every jq expression
 * compiled. Immutable and thread-safe.
 *
 * @param name       {@code metadata.name} of the Karta
 * @param origin     where it came from: {@code catalog}, a file path, or {@code cluster}
 * @param components every component, the root first, each after its owner
 * @param source     the definition as read, unchanged
 */
public record WorkloadDefinition(
        String name,
        String origin,
        List<ComponentDefinition> components,
        List<GroupVersionKind> additionalChildKinds,
        List<PodGroupDefinition> podGroups,
        JsonNode source) {

    public WorkloadDefinition {
        components = List.copyOf(components);
        additionalChildKinds = List.copyOf(additionalChildKinds);
        podGroups = List.copyOf(podGroups);
        if (components.isEmpty() || components.get(0).ownerRef().isPresent()) {
            throw new IllegalArgumentException("the root component comes first and has no owner");
        }
    }

    public ComponentDefinition root() {
        return components.get(0);
    }

    /** The kind of workload this definition interprets (the root component's kind). */
    public GroupVersionKind kind() {
        return root().kind().orElseThrow();
    }

    public StatusDefinition status() {
        return root().status().orElseThrow();
    }

    public Optional<SuspendDefinition> suspend() {
        return root().suspend();
    }

    public Optional<ComponentDefinition> component(String componentName) {
        for (ComponentDefinition c : components) {
            if (c.name().equals(componentName)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** The components {@code componentName} owns, in definition order (resolving asks often: plain loops). */
    public List<ComponentDefinition> children(String componentName) {
        List<ComponentDefinition> out = null;
        for (ComponentDefinition c : components) {
            if (c.ownerRef().isPresent() && c.ownerRef().get().equals(componentName)) {
                if (out == null) {
                    out = new java.util.ArrayList<>(2);
                }
                out.add(c);
            }
        }
        return out == null ? List.of() : java.util.Collections.unmodifiableList(out);
    }

    public WorkloadDefinition withOrigin(String newOrigin) {
        return new WorkloadDefinition(name, newOrigin, components, additionalChildKinds, podGroups, source);
    }
}
