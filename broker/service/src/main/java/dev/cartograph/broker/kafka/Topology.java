package dev.cartograph.broker.kafka;

import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.kafka.Shortfall;
import dev.cartograph.protocol.kafka.TopicMaker;
import dev.cartograph.protocol.kafka.TopicMaker.Cleanup;
import dev.cartograph.protocol.kafka.TopologyException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The topics the broker writes: {@code P.placements} (compacted), made by {@link #ensurePlacements()}
 * when the broker starts, and one {@code P.commands.CLUSTER} (retention) per member, made by
 * {@link #ensureCommandTopic(String)} when the broker first hears of the cluster. Each agent creates
 * its own {@code P.from.CLUSTER.*} topics; the broker only reads them. All are made by
 * {@link TopicMaker}'s one rule (one partition, {@code cartograph.broker.topic-replication-factor} and
 * {@code topic-min-insync-replicas}, unclean leader election off); existing topics are checked, never
 * altered.
 *
 * <p>Thread-safe; topics found or created once are remembered, so asking again costs a set lookup.
 * Close once.
 */
public final class Topology implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Topology.class);

    private final TopicMaker maker;
    private final Topics topics;

    /**
     * @param kafka    Kafka client settings ({@code bootstrap.servers}, TLS, SASL…), as the broker's other clients get them
     * @param settings how new topics are replicated
     */
    public Topology(Map<String, String> kafka, Topics topics, TopicSettings settings) {
        this.maker = new TopicMaker(kafka, settings, "cartograph.broker");
        this.topics = topics;
    }

    /** Creates {@code P.placements} if it is missing, or checks it; returns what falls short. */
    public List<Shortfall> ensurePlacements() throws TopologyException, InterruptedException {
        return maker.ensure(Map.of(topics.placements(), Cleanup.COMPACT));
    }

    /** The id of {@code P.placements} now, or empty when it does not exist ({@link TopicMaker#topicId}). */
    public java.util.Optional<org.apache.kafka.common.Uuid> placementsTopicId()
            throws TopologyException, InterruptedException {
        return maker.topicId(topics.placements());
    }

    /** The placements topic's name. */
    public String placementsTopic() {
        return topics.placements();
    }

    /** Creates {@code P.usage} (compacted) if it is missing, or checks it; returns what falls short. Cheap once known. */
    public List<Shortfall> ensureUsage() throws TopologyException, InterruptedException {
        return maker.ensure(Map.of(topics.usage(), Cleanup.COMPACT));
    }

    /**
     * Creates {@code P.commands.CLUSTER} if it is missing, or checks it if it exists; returns what
     * falls short. Idempotent: once the topic is known to exist, returns at once without asking Kafka.
     *
     * @throws IllegalArgumentException if the cluster name cannot be part of a topic name
     */
    public List<Shortfall> ensureCommandTopic(String cluster) throws TopologyException, InterruptedException {
        String topic = topics.commands(cluster);
        try (MDC.MDCCloseable c = MDC.putCloseable("cluster", cluster)) {
            return maker.ensure(Map.of(topic, Cleanup.DELETE));
        }
    }

    /**
     * {@link #ensureCommandTopic} for callers that must go on either way (the ingest hearing of a
     * member, the outbox about to send it a command): what falls short or fails is logged, not thrown.
     */
    public void ensureCommandTopicOrLog(String cluster) {
        try {
            ensureCommandTopic(cluster).forEach(shortfall -> LOG.warn("{}", shortfall));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TopologyException | RuntimeException e) {
            LOG.warn("cannot make sure the command topic of {} exists yet: {}", cluster, e.getMessage());
        }
    }

    @Override
    public void close() {
        maker.close();
    }
}
