package dev.cartograph.interpreter.view;

import java.util.Optional;

/**
 * Pod counts of one component instance, already multiplied by its owners' scale.
 *
 * @param desired pods at spec scale
 * @param min     pods the workload needs to run: {@code minReplicas} when above zero, else desired
 * @param max     the ceiling of an elastic or autoscaled component, when the definition gives one
 */
public record Replicas(long desired, long min, Optional<Long> max) {
    public Replicas {
        if (desired < 0 || min < 0) {
            throw new IllegalArgumentException("replica counts cannot be negative");
        }
    }
}
