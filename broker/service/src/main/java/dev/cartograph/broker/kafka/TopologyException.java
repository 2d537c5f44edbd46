package dev.cartograph.broker.kafka;

/** Cartograph's topics could not be made to exist as configured; {@link #reason()} says why and whether retrying helps. */
public final class TopologyException extends Exception {

    /** Why the topics are not there. */
    public enum Reason {
        /** Kafka did not answer in time or the connection failed: retrying helps. */
        KAFKA_UNAVAILABLE,
        /**
         * Fewer brokers are up than the replication factor asks for: retrying helps only once more
         * brokers are up; otherwise lower {@code topic-replication-factor}.
         */
        TOO_FEW_BROKERS,
        /** Kafka refused the request (authorization, a create-topic policy, an invalid config): retrying does not help. */
        REJECTED
    }

    private final Reason reason;

    TopologyException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** Whether the same call may succeed later with nothing changed but time. */
    public boolean retryable() {
        return reason == Reason.KAFKA_UNAVAILABLE;
    }
}
