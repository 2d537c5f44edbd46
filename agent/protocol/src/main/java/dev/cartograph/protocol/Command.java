package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the broker asks one cluster's agent to do (per-cluster topic, key = placement id). Every
 * command carries the placement's fencing epoch: an agent ignores a command older than the epoch it
 * has applied. It also carries the leader {@link #term} of the broker that wrote it and when it was
 * {@link #issued}: an agent orders the commands of one placement by (term, epoch, issued), so a command read
 * again after a later delete of its placement is told apart from one sent after it (docs/protocol.md). Immutable.
 */
public sealed interface Command {
    String placementId();

    long epoch();

    Instant issued();

    /**
     * The leader term of the broker that wrote the command (the hub Lease's transitions when it took the lead; 0
     * without leader election, and in commands of brokers that predate the field). The broker made the command
     * before it knew in which term it would be written, so its outbox stamps it ({@link #withTerm}).
     */
    long term();

    /** This command as written by a broker of leader term {@code term}. */
    Command withTerm(long term);

    private static long validTerm(long term) {
        if (term < 0) {
            throw new IllegalArgumentException("term must be 0 or more, not " + term);
        }
        return term;
    }

    /**
     * Create, or update the object this agent created for the placement, after its {@code dependencies}: the
     * ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims its pods need, in the workload's namespace, as
     * {@link DependencyManifest} made them from the hub's objects. The list is every dependency the placement has
     * now: one the agent applied for it before and no longer listed is released (deleted once no placement uses it;
     * a claim is kept). {@code toString} names objects only; a Secret's data is never printed.
     */
    record Apply(
            String placementId, long epoch, Instant issued, JsonNode manifest, List<JsonNode> dependencies, long term)
            implements Command {
        public Apply {
            Objects.requireNonNull(placementId, "placementId");
            Objects.requireNonNull(issued, "issued");
            Objects.requireNonNull(manifest, "manifest");
            manifest = manifest.deepCopy();
            dependencies =
                    dependencies.stream().<JsonNode>map(JsonNode::deepCopy).toList();
            validTerm(term);
        }

        /** An apply not yet stamped with a leader term (term 0). */
        public Apply(String placementId, long epoch, Instant issued, JsonNode manifest, List<JsonNode> dependencies) {
            this(placementId, epoch, issued, manifest, dependencies, 0);
        }

        /** An apply of a workload whose pods need nothing from its namespace (term 0). */
        public Apply(String placementId, long epoch, Instant issued, JsonNode manifest) {
            this(placementId, epoch, issued, manifest, List.of());
        }

        @Override
        public Apply withTerm(long term) {
            return new Apply(placementId, epoch, issued, manifest, dependencies, term);
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
            return "Apply[" + placementId + " epoch " + epoch + (term == 0 ? "" : " term " + term) + ": "
                    + DependencyManifest.describe(manifest)
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
    record Delete(String placementId, long epoch, Instant issued, WorkloadKey copy, long term) implements Command {
        public Delete {
            Objects.requireNonNull(placementId, "placementId");
            Objects.requireNonNull(issued, "issued");
            Objects.requireNonNull(copy, "copy");
            validTerm(term);
        }

        /** A delete not yet stamped with a leader term (term 0). */
        public Delete(String placementId, long epoch, Instant issued, WorkloadKey copy) {
            this(placementId, epoch, issued, copy, 0);
        }

        @Override
        public Delete withTerm(long term) {
            return new Delete(placementId, epoch, issued, copy, term);
        }
    }
}
