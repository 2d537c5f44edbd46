package dev.cartograph.simulator.kubelet;

import java.util.Objects;

/** What the kubelet does with a bound pod now: start its containers, or keep them waiting. Immutable. */
public sealed interface Startup {
    /** Every object the pod mounts and reads is there: its containers run. */
    record Start() implements Startup {}

    /**
     * A ConfigMap, Secret or claim the pod needs is missing: the pod stays Pending, its containers waiting with the
     * kubelet's reason ({@value Kubelet#CONTAINER_CREATING} for a volume it cannot mount,
     * {@value Kubelet#CREATE_CONTAINER_CONFIG_ERROR} for an environment it cannot build) and message.
     */
    record Wait(String reason, String message) implements Startup {
        public Wait {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
        }
    }
}
