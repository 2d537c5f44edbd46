package dev.cartograph.protocol.kafka;

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
        /**
         * This client's principal may not create (or describe) the topics: retrying helps only once an
         * operator has created them, or granted it CREATE on them.
         */
        NOT_AUTHORIZED,
        /** Kafka refused the request (a create-topic policy, an invalid config): retrying does not help. */
        REJECTED
    }

    private final Reason reason;

    /** Public so that callers' tests can stand in for Kafka; in production only {@link TopicMaker} makes one. */
    public TopologyException(Reason reason, String message, Throwable cause) {
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
