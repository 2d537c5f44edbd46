package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.dependency.Dependency;
import java.util.Optional;

/**
 * The hub's ConfigMaps, Secrets, ServiceAccounts and PersistentVolumeClaims, as a watch of the hub keeps them (a
 * change is posted to the coordinator as {@link Input.DependencyChanged}). Read from the coordinator's thread;
 * implementations are thread-safe.
 */
public interface HubDependencies {
    /** Nothing is watched: workloads' dependencies are neither copied to members nor waited for (embedded use, tests). */
    HubDependencies NONE = new HubDependencies() {
        @Override
        public boolean watched() {
            return false;
        }

        @Override
        public Optional<JsonNode> find(Dependency.Kind kind, String namespace, String name) {
            return Optional.empty();
        }
    };

    /** False when the hub's dependencies are not followed at all. */
    boolean watched();

    /** The hub's object of that kind, namespace and name, as JSON; empty when there is none. */
    Optional<JsonNode> find(Dependency.Kind kind, String namespace, String name);

    /** Whether the hub has it (cheaper than {@link #find}: nothing is converted). */
    default boolean has(Dependency.Kind kind, String namespace, String name) {
        return find(kind, namespace, name).isPresent();
    }
}
