package dev.cartograph.protocol;

import dev.cartograph.interpreter.resources.ResourceList;
import java.util.Objects;

/**
 * What an agent says about one placement it applied: the fencing epoch it holds, and the demand of
 * its pods not yet bound to a node (so the broker keeps that much reserved until the pods land).
 * Immutable.
 */
public record PlacementReport(String placementId, long epoch, int pendingPods, ResourceList pendingDemand) {
    public PlacementReport {
        Objects.requireNonNull(placementId, "placement id");
        Objects.requireNonNull(pendingDemand, "pending demand");
    }
}
