package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
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

    /** Create, or update the object this agent created for the placement. */
    record Apply(String placementId, long epoch, Instant issued, JsonNode manifest) implements Command {
        public Apply {
            Objects.requireNonNull(placementId, "placementId");
            Objects.requireNonNull(issued, "issued");
            Objects.requireNonNull(manifest, "manifest");
            manifest = manifest.deepCopy();
        }

        @Override
        public JsonNode manifest() {
            return manifest.deepCopy();
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
