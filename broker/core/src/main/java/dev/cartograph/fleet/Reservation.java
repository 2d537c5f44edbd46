package dev.cartograph.fleet;

import dev.cartograph.interpreter.resources.ResourceList;
import java.util.Map;
import java.util.Objects;

/**
 * Capacity the broker has promised to a placement and not yet seen accounted by the cluster's
 * agent, per node. Held until the agent reports the placement applied at this epoch (or later)
 * with no pod left unbound; no time-based guess. Immutable.
 */
public record Reservation(String placementId, String cluster, long epoch, Map<String, ResourceList> perNode) {
    public Reservation {
        Objects.requireNonNull(placementId, "placementId");
        Objects.requireNonNull(cluster, "cluster");
        perNode = Map.copyOf(perNode);
    }
}
