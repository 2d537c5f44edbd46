package dev.cartograph.broker.kafka;

import dev.cartograph.broker.kafka.TopologyException.Reason;
import dev.cartograph.broker.settings.TopicSettings;
import dev.cartograph.protocol.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Cartograph's topics, created on purpose and never left to Kafka's automatic creation: the shared
 * {@code P.clusters}, {@code P.workloads}, {@code P.placements} (compacted) and {@code P.events}
 * (retention), made by {@link #ensureShared()} when the broker starts, and one
 * {@code P.commands.CLUSTER} (retention) per member, made by {@link #ensureCommandTopic(String)}
 * when the broker first hears of the cluster. Each has one partition, the configured replication
 * factor and {@code min.insync.replicas}, and unclean leader election off.
 *
 * <p>A replication factor larger than the number of brokers up is refused
 * ({@link Reason#TOO_FEW_BROKERS}), never quietly lowered. Existing topics are never altered: one
 * whose replication factor, {@code min.insync.replicas}, cleanup policy or unclean leader election
 * falls short of what is configured is logged as a warning and returned as a {@link Shortfall}.
 *
 * <p>Thread-safe: one Admin client (Kafka's is thread-safe); topics found or created once are
 * remembered, so asking again for them costs a set lookup. Close once.
 */
public final class Topology implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Topology.class);
    private static final long TIMEOUT_SECONDS = 30;
    private static final int PARTITIONS = 1;

    private final Admin admin;
    private final Topics topics;
    private final TopicSettings settings;
    private final String bootstrap;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /**
     * @param kafka    Kafka client settings ({@code bootstrap.servers}, TLS, SASL…), as the broker's other clients get them
     * @param settings how new topics are replicated
     */
    public Topology(Map<String, String> kafka, Topics topics, TopicSettings settings) {
        this.admin = Admin.create(new HashMap<>(kafka));
        this.topics = topics;
        this.settings = settings;
        this.bootstrap = kafka.getOrDefault("bootstrap.servers", "?");
    }

    /** Creates the shared topics that are missing and checks the others; returns what falls short. */
    public List<Shortfall> ensureShared() throws TopologyException, InterruptedException {
        Map<String, Boolean> compacted = new LinkedHashMap<>();
        compacted.put(topics.clusters(), true);
        compacted.put(topics.workloads(), true);
        compacted.put(topics.placements(), true);
        compacted.put(topics.events(), false);
        return ensure(compacted);
    }

    /**
     * Creates {@code P.commands.CLUSTER} if it is missing, or checks it if it exists; returns what
     * falls short. Idempotent: once the topic is known to exist, returns at once without asking Kafka.
     *
     * @throws IllegalArgumentException if the cluster name cannot be part of a topic name
     */
    public List<Shortfall> ensureCommandTopic(String cluster) throws TopologyException, InterruptedException {
        String topic = topics.commands(cluster);
        if (known.contains(topic)) {
            return List.of();
        }
        try (MDC.MDCCloseable c = MDC.putCloseable("cluster", cluster)) {
            return ensure(Map.of(topic, false));
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
        admin.close(java.time.Duration.ofSeconds(5));
    }

    private List<Shortfall> ensure(Map<String, Boolean> compacted) throws TopologyException, InterruptedException {
        Map<String, TopicDescription> existing = describe(compacted.keySet());
        List<String> missing = compacted.keySet().stream()
                .filter(t -> !existing.containsKey(t))
                .toList();
        List<String> raced = create(missing, compacted);
        existing.putAll(describe(raced));
        List<Shortfall> shortfalls = check(existing, compacted);
        known.addAll(compacted.keySet());
        return shortfalls;
    }

    /** The descriptions of those of {@code names} that exist. */
    private Map<String, TopicDescription> describe(Collection<String> names)
            throws TopologyException, InterruptedException {
        Map<String, TopicDescription> found = new HashMap<>();
        if (names.isEmpty()) {
            return found;
        }
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e :
                admin.describeTopics(names).topicNameValues().entrySet()) {
            try {
                found.put(e.getKey(), await(e.getValue()));
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw failure("cannot describe topic " + e.getKey(), ex.getCause());
                }
            } catch (TimeoutException ex) {
                throw failure("cannot describe topic " + e.getKey(), ex);
            }
        }
        return found;
    }

    /** Creates the missing topics; returns those another process created first. */
    private List<String> create(List<String> missing, Map<String, Boolean> compacted)
            throws TopologyException, InterruptedException {
        if (missing.isEmpty()) {
            return List.of();
        }
        refuseIfTooFewBrokers(missing);
        List<NewTopic> wanted = missing.stream()
                .map(t -> new NewTopic(t, PARTITIONS, (short) settings.replicationFactor())
                        .configs(configs(compacted.get(t))))
                .toList();
        List<String> raced = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<Void>> e :
                admin.createTopics(wanted).values().entrySet()) {
            try {
                await(e.getValue());
                LOG.info(
                        "created topic {} (replication factor {}, min.insync.replicas {}, {})",
                        e.getKey(),
                        settings.replicationFactor(),
                        settings.minInsyncReplicas(),
                        compacted.get(e.getKey()) ? "compacted" : "retention");
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw failure("cannot create topic " + e.getKey(), ex.getCause());
                }
                raced.add(e.getKey());
            } catch (TimeoutException ex) {
                throw failure("cannot create topic " + e.getKey(), ex);
            }
        }
        return raced;
    }

    private void refuseIfTooFewBrokers(List<String> missing) throws TopologyException, InterruptedException {
        int brokers;
        try {
            brokers = await(admin.describeCluster().nodes()).size();
        } catch (ExecutionException e) {
            throw failure("cannot count the Kafka brokers", e.getCause());
        } catch (TimeoutException e) {
            throw failure("cannot count the Kafka brokers", e);
        }
        if (settings.replicationFactor() > brokers) {
            throw new TopologyException(
                    Reason.TOO_FEW_BROKERS,
                    "topic replication factor " + settings.replicationFactor() + " needs "
                            + settings.replicationFactor() + " Kafka brokers, but " + brokers + " "
                            + (brokers == 1 ? "is" : "are") + " up at "
                            + bootstrap + "; not creating " + missing
                            + ". Start more brokers, or lower cartograph.broker.topic-replication-factor"
                            + " (and topic-min-insync-replicas) to what this Kafka can hold",
                    null);
        }
    }

    private Map<String, String> configs(boolean compacted) {
        return Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG,
                compacted ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                String.valueOf(settings.minInsyncReplicas()),
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG,
                "false");
    }

    /** What the existing topics have less of than configured, each also logged as a warning. */
    private List<Shortfall> check(Map<String, TopicDescription> existing, Map<String, Boolean> compacted)
            throws TopologyException, InterruptedException {
        if (existing.isEmpty()) {
            return List.of();
        }
        Map<ConfigResource, Config> configs = describeConfigs(existing.keySet());
        List<Shortfall> shortfalls = new ArrayList<>();
        for (TopicDescription d : existing.values()) {
            Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, d.name()));
            shortfalls.addAll(Shortfall.of(d, config, compacted.get(d.name()), settings));
        }
        for (Shortfall s : shortfalls) {
            LOG.warn(
                    "{}; Cartograph does not change existing topics: alter it yourself (docs/operations.md, Topics)",
                    s);
        }
        return shortfalls;
    }

    private Map<ConfigResource, Config> describeConfigs(Collection<String> names)
            throws TopologyException, InterruptedException {
        List<ConfigResource> resources = names.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        try {
            return await(admin.describeConfigs(resources).all());
        } catch (ExecutionException e) {
            throw failure("cannot read the configuration of " + names, e.getCause());
        } catch (TimeoutException e) {
            throw failure("cannot read the configuration of " + names, e);
        }
    }

    private TopologyException failure(String what, Throwable cause) {
        Reason reason = cause instanceof InvalidReplicationFactorException
                ? Reason.TOO_FEW_BROKERS
                : cause instanceof RetriableException || cause instanceof TimeoutException
                        ? Reason.KAFKA_UNAVAILABLE
                        : Reason.REJECTED;
        return new TopologyException(reason, what + " at " + bootstrap + ": " + cause, cause);
    }

    private static <T> T await(KafkaFuture<T> future)
            throws ExecutionException, TimeoutException, InterruptedException {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
