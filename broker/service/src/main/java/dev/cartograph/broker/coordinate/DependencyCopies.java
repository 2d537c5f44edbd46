package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.dependency.Dependency;
import dev.cartograph.protocol.DependencyManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The objects a gang's pods need from its namespace on the hub (ConfigMaps, Secrets, its ServiceAccount, claims),
 * found through its definition's pod templates, and what of them goes to its member with every apply
 * ({@link DependencyManifest}). A gang that needs one the hub does not have (or one that may not be copied) waits,
 * with a reason naming it and where the pod template refers to it. Optional references are copied when present and
 * never waited for. Coordinator thread only.
 */
final class DependencyCopies {
    private final HubDependencies hub;
    private final DemandCache demands;
    private final Supplier<Interpreter> interpreter;

    DependencyCopies(HubDependencies hub, DemandCache demands, Supplier<Interpreter> interpreter) {
        this.hub = hub;
        this.demands = demands;
        this.interpreter = interpreter;
    }

    /** Why the gang cannot be sent yet, when a dependency it must have is missing on the hub or may not be copied. */
    Optional<String> missing(HubObject object) {
        if (!hub.watched()) {
            return Optional.empty();
        }
        List<String> problems = new ArrayList<>();
        String ns = object.target().namespace();
        for (Dependency d : demands.needs(object, interpreter.get()).dependencies()) {
            if (!hub.has(d.kind(), ns, d.name())) {
                if (!d.optional()) {
                    problems.add(d.kind().kind() + " " + ns + "/" + d.name() + " (" + d.field()
                            + ") does not exist on the hub");
                }
            } else if (d.kind() == Dependency.Kind.SECRET) { // the one kind of which some may not be copied
                hub.find(d.kind(), ns, d.name())
                        .flatMap(DependencyManifest::refusal)
                        .ifPresent(problems::add);
            }
        }
        return problems.isEmpty()
                ? Optional.empty()
                : Optional.of("waits for what its pods need: " + String.join("; ", problems)
                        + ". It is placed once the hub has " + (problems.size() == 1 ? "it" : "them"));
    }

    /** The member copies of the gang's dependencies the hub has now (none when dependencies are not watched). */
    List<JsonNode> manifests(HubObject object) {
        if (!hub.watched()) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        for (Dependency d : demands.needs(object, interpreter.get()).dependencies()) {
            hub.find(d.kind(), object.target().namespace(), d.name())
                    .filter(o -> DependencyManifest.refusal(o).isEmpty())
                    .ifPresent(o -> out.add(DependencyManifest.of(o)));
        }
        return out;
    }
}
