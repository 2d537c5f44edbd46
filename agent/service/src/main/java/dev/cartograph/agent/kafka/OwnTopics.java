package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.AgentTopic;
import dev.cartograph.protocol.kafka.Shortfall;
import dev.cartograph.protocol.kafka.TopicMaker;
import dev.cartograph.protocol.kafka.TopicMaker.Cleanup;
import dev.cartograph.protocol.kafka.TopologyException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's own topics, {@code P.from.CLUSTER.cluster|workloads|events}: created by the agent when
 * missing (by {@link TopicMaker}'s rule, the broker's), so it needs CREATE on its prefix
 * {@code P.from.CLUSTER.} — or an operator creates them. Nothing is published before they exist. When
 * they cannot be made, {@link #ready()} says so, names the topics an operator must create and how, and
 * tries again later (backing off to {@link #BACKOFF}'s maximum): never throws, never gives up.
 *
 * <p>{@link #ready()} is called from one thread (the publishing thread); {@link #problem()} from any.
 */
public final class OwnTopics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OwnTopics.class);
    static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    /** Makes topics exist (Kafka's admin in production; tests stand in for it). */
    public interface Maker {
        /** Creates those of {@code wanted} that are missing; returns what existing ones have less of than configured. */
        List<Shortfall> ensure(Map<String, Cleanup> wanted) throws TopologyException, InterruptedException;

        default void close() {}
    }

    private final String cluster;
    private final String prefix;
    private final TopicSettings settings;
    private final Map<String, Cleanup> wanted = new LinkedHashMap<>();
    private final Maker maker;
    private final Clock clock;
    private volatile boolean ready;
    private volatile Optional<String> problem = Optional.empty();
    private int failures;
    private boolean closed;
    private Instant next = Instant.MIN;

    public OwnTopics(Topics topics, String cluster, TopicSettings settings, Maker maker, Clock clock) {
        this.cluster = cluster;
        this.prefix = topics.agentPrefix(cluster);
        this.settings = settings;
        for (AgentTopic t : AgentTopic.values()) {
            wanted.put(topics.of(cluster, t), t.compacted() ? Cleanup.COMPACT : Cleanup.DELETE);
        }
        this.maker = maker;
        this.clock = clock;
    }

    /** Over Kafka's admin client with the agent's Kafka settings. */
    public static OwnTopics kafka(
            Map<String, String> kafka, Topics topics, String cluster, TopicSettings settings, Clock clock) {
        TopicMaker admin = new TopicMaker(kafka, settings, "cartograph.agent");
        return new OwnTopics(
                topics,
                cluster,
                settings,
                new Maker() {
                    @Override
                    public List<Shortfall> ensure(Map<String, Cleanup> wanted)
                            throws TopologyException, InterruptedException {
                        return admin.ensure(wanted);
                    }

                    @Override
                    public void close() {
                        admin.close();
                    }
                },
                clock);
    }

    /**
     * True once the topics exist. Until then, each call past the backoff asks Kafka again (creating what is
     * missing); one that fails records the {@link #problem()} and logs it. Never throws.
     */
    public boolean ready() {
        if (ready) {
            return true;
        }
        Instant now = clock.instant();
        if (now.isBefore(next)) {
            return false;
        }
        try {
            maker.ensure(wanted); // shortfalls of existing topics are logged by the maker
            ready = true;
            problem = Optional.empty();
            LOG.info("the topics of cluster {} exist: {}", cluster, wanted.keySet());
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TopologyException e) {
            failed(now, explain(e));
        } catch (RuntimeException e) {
            failed(now, "cannot make sure the topics " + wanted.keySet() + " exist: " + e);
        }
        return ready;
    }

    /** Why the topics are not there yet; empty once they are (or before the first try). */
    public Optional<String> problem() {
        return problem;
    }

    private void failed(Instant now, String why) {
        failures++;
        Duration wait = BACKOFF.after(failures);
        next = now.plus(wait);
        problem = Optional.of(why);
        LOG.warn("{}; nothing is published until they exist; trying again in {} s", why, wait.toSeconds());
    }

    /** What went wrong, and for an agent not allowed to create its topics, what the operator must do. */
    String explain(TopologyException e) {
        if (e.reason() != TopologyException.Reason.NOT_AUTHORIZED) {
            return "the topics " + wanted.keySet() + " of cluster " + cluster + " cannot be made yet: "
                    + e.getMessage();
        }
        StringBuilder how = new StringBuilder();
        wanted.forEach((topic, cleanup) -> how.append(how.isEmpty() ? "" : ", ")
                .append(topic)
                .append(" (")
                .append(TopicMaker.configs(cleanup, settings).get(TopicConfig.CLEANUP_POLICY_CONFIG))
                .append(")"));
        String kafkaSaid = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
        return "the agent of cluster " + cluster + " may not create its topics (Kafka: " + kafkaSaid
                + "). An operator must create " + how + ", each with " + TopicMaker.PARTITIONS
                + " partition, replication factor " + settings.replicationFactor() + ", min.insync.replicas "
                + settings.minInsyncReplicas() + " and unclean.leader.election.enable=false"
                + " — or allow this agent's principal CREATE on the topic prefix " + prefix;
    }

    /** Closes the admin client (done on its own once the topics exist). Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            maker.close();
        }
    }
}
