package dev.cartograph.interpreter.view;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** A component with its instances and child components, as a tree. Immutable. */
public record ComponentView(
        String name, Optional<GroupVersionKind> kind, List<InstanceView> instances, List<ComponentView> children) {

    public ComponentView {
        instances = List.copyOf(instances);
        children = List.copyOf(children);
    }

    /** This component and every descendant, depth first. */
    public Stream<ComponentView> flatten() {
        return Stream.concat(Stream.of(this), children.stream().flatMap(ComponentView::flatten));
    }
}
