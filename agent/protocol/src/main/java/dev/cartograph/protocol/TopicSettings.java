package dev.cartograph.protocol;

/**
 * How Cartograph's topics are replicated when they are created: the broker's ({@code P.placements},
 * {@code P.commands.CLUSTER}) and each agent's own ({@code P.from.CLUSTER.*}), each with the same
 * two settings under its own prefix. Immutable.
 *
 * <p>A record written with {@code acks=all} (the broker and agents write that way) is acknowledged
 * once every in-sync replica has it, and only while at least {@code minInsyncReplicas} replicas are
 * in sync; otherwise the write is refused rather than kept on too few copies. With the defaults
 * (3 replicas, 2 in sync) an acknowledged record survives the loss of any one broker, and writes go
 * on while one broker is down.
 *
 * @param replicationFactor copies of every partition ({@code cartograph.broker.topic-replication-factor},
 *                          {@code cartograph.agent.topic-replication-factor});
 *                          Kafka needs at least this many brokers
 * @param minInsyncReplicas copies an {@code acks=all} write must reach
 *                          ({@code cartograph.broker|agent.topic-min-insync-replicas}), 1..replicationFactor
 */
public record TopicSettings(int replicationFactor, int minInsyncReplicas) {
    /** Production: survives one broker down without losing or refusing writes. */
    public static final TopicSettings DEFAULTS = new TopicSettings(3, 2);
    /** A single Kafka broker (the local fleet, most tests): no redundancy at all. */
    public static final TopicSettings SINGLE_BROKER = new TopicSettings(1, 1);

    public TopicSettings {
        if (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "topic-replication-factor must be 1.." + Short.MAX_VALUE + ", not " + replicationFactor);
        }
        if (minInsyncReplicas < 1) {
            throw new IllegalArgumentException(
                    "topic-min-insync-replicas must be at least 1, not " + minInsyncReplicas);
        }
        if (minInsyncReplicas > replicationFactor) {
            throw new IllegalArgumentException(
                    "topic-min-insync-replicas (" + minInsyncReplicas + ") cannot exceed topic-replication-factor ("
                            + replicationFactor + "): Kafka would refuse every acks=all write");
        }
    }
}
