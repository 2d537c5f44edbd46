package dev.cartograph.mock.fleet;

import java.util.Optional;

/**
 * Something wrong in a fleet profile, naming the cluster (when inside one) and the field path
 * within it, e.g. cluster {@code gpu-east}, field {@code nodePools[0].usedGpus[2]}. Immutable.
 */
public record ProfileProblem(String origin, Optional<String> cluster, String field, String message) {

    @Override
    public String toString() {
        return origin + ": " + cluster.map(c -> "cluster " + c + ", ").orElse("") + "field " + field + ": " + message;
    }
}
