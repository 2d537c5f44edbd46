package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the broker asks one cluster's agent to do (per-cluster topic, key = placement id). Every
 * command carries the placement's fencing epoch: an agent ignores a command older than the epoch it
 * has applied. Immutable.
 */
public sealed interface Command {
    String placementId();

    long epoch();

    Instant issued();

    /**
     * Create, or update the object this agent created for the placement, after its {@code dependencies}: the
     * ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims its pods need, in the workload's namespace, as
     * {@link DependencyManifest} made them from the hub's objects. The list is every dependency the placement has
     * now: one the agent applied for it before and no longer listed is released (deleted once no placement uses it;
     * a claim is kept). {@code toString} names objects only; a Secret's data is never printed.
     */
    record Apply(String placementId, long epoch, Instant issued, JsonNode manifest, List<JsonNode> dependencies)
            implements Command {
        public Apply {
            Objects.requireNonNull(placementId, "placementId");
            Objects.requireNonNull(issued, "issued");
            Objects.requireNonNull(manifest, "manifest");
            manifest = manifest.deepCopy();
            dependencies =
                    dependencies.stream().<JsonNode>map(JsonNode::deepCopy).toList();
        }

        /** An apply of a workload whose pods need nothing from its namespace. */
        public Apply(String placementId, long epoch, Instant issued, JsonNode manifest) {
            this(placementId, epoch, issued, manifest, List.of());
        }

        @Override
        public JsonNode manifest() {
            return manifest.deepCopy();
        }

        @Override
        public List<JsonNode> dependencies() {
            return dependencies.stream().<JsonNode>map(JsonNode::deepCopy).toList();
        }

        @Override
        public String toString() {
            return "Apply[" + placementId + " epoch " + epoch + ": " + DependencyManifest.describe(manifest)
                    + (dependencies.isEmpty()
                            ? ""
                            : " after "
                                    + dependencies.stream()
                                            .map(DependencyManifest::describe)
                                            .collect(java.util.stream.Collectors.joining(", ")))
                    + "]";
        }
    }

    /**
     * Delete the object this agent created for the placement: the one {@code copy} names (its kind, namespace and
     * name on the command's cluster), and only if it carries the agent's marks for this placement. Never found by
     * a search, so no other object can be taken for the copy.
     */
    record Delete(String placementId, long epoch, Instant issued, WorkloadKey copy) implements Command {
        public Delete {
            Objects.requireNonNull(placementId, "placementId");
            Objects.requireNonNull(issued, "issued");
            Objects.requireNonNull(copy, "copy");
        }
    }
}
