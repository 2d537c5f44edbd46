package dev.cartograph.protocol.kafka;

import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.kafka.TopologyException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Cartograph's topics on purpose — never left to Kafka's automatic creation — by one rule for
 * every topic, whoever creates it (the broker its {@code P.placements} and {@code P.commands.CLUSTER},
 * each agent its own {@code P.from.CLUSTER.*}): one partition (so one key's records, and one cluster's
 * commands, stay in order), the configured replication factor and {@code min.insync.replicas},
 * unclean leader election off, and compaction or deletion by age as the topic's {@link Cleanup} says.
 *
 * <p>A replication factor larger than the number of brokers up is refused
 * ({@link Reason#TOO_FEW_BROKERS}), never quietly lowered; a principal without CREATE gets
 * {@link Reason#NOT_AUTHORIZED}, naming the topics. Existing topics are never altered: one whose
 * replication factor, {@code min.insync.replicas}, cleanup policy or unclean leader election falls
 * short of what is configured is logged as a warning and returned as a {@link Shortfall} (when this
 * principal may not read topic configurations, only the replication factor is checked).
 *
 * <p>Thread-safe: one Admin client (Kafka's is thread-safe); topics found or created once are
 * remembered, so asking again for them costs a set lookup. Close once.
 */
public final class TopicMaker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TopicMaker.class);
    private static final long TIMEOUT_SECONDS = 30;
    /** One partition per topic: one key's records, one cluster's commands, stay in order. */
    public static final int PARTITIONS = 1;

    /** How a topic forgets: compacted (the newest record per key stays) or deleted by age. */
    public enum Cleanup {
        COMPACT,
        DELETE
    }

    private final Admin admin;
    private final TopicSettings settings;
    private final String settingsPrefix;
    private final String bootstrap;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /**
     * @param kafka          Kafka client settings ({@code bootstrap.servers}, TLS, SASL…), as the caller's other clients get them
     * @param settings       how new topics are replicated
     * @param settingsPrefix where those settings are configured ({@code cartograph.broker}), named in error messages
     */
    public TopicMaker(Map<String, String> kafka, TopicSettings settings, String settingsPrefix) {
        this.admin = Admin.create(new HashMap<>(kafka));
        this.settings = settings;
        this.settingsPrefix = settingsPrefix;
        this.bootstrap = kafka.getOrDefault("bootstrap.servers", "?");
    }

    /** The topic Cartograph creates under this name: the one rule for every Cartograph topic. */
    public static NewTopic spec(String topic, Cleanup cleanup, TopicSettings settings) {
        return new NewTopic(topic, PARTITIONS, (short) settings.replicationFactor())
                .configs(configs(cleanup, settings));
    }

    /** The topic configuration of {@link #spec}. */
    public static Map<String, String> configs(Cleanup cleanup, TopicSettings settings) {
        return Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG,
                cleanup == Cleanup.COMPACT ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                String.valueOf(settings.minInsyncReplicas()),
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG,
                "false");
    }

    /**
     * Creates those of {@code wanted} that are missing and checks the others; returns what falls short.
     * Topics found or created by an earlier call are neither asked for nor checked again.
     */
    public List<Shortfall> ensure(Map<String, Cleanup> wanted) throws TopologyException, InterruptedException {
        Map<String, Cleanup> unknown = new LinkedHashMap<>(wanted);
        unknown.keySet().removeAll(known);
        if (unknown.isEmpty()) {
            return List.of();
        }
        Map<String, TopicDescription> existing = describe(unknown.keySet());
        List<String> missing =
                unknown.keySet().stream().filter(t -> !existing.containsKey(t)).toList();
        List<String> raced = create(missing, unknown);
        existing.putAll(describe(raced));
        List<Shortfall> shortfalls = check(existing, unknown);
        known.addAll(unknown.keySet());
        return shortfalls;
    }

    /**
     * The id Kafka gives {@code topic} now (a topic deleted and created again gets another), or empty when it does not
     * exist — then it is no longer taken as known, so {@link #ensure} creates it again.
     */
    public Optional<Uuid> topicId(String topic) throws TopologyException, InterruptedException {
        TopicDescription d = describe(List.of(topic)).get(topic);
        if (d == null) {
            known.remove(topic);
            return Optional.empty();
        }
        return Optional.of(d.topicId());
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
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
                    throw failure("cannot describe topic " + e.getKey(), ex.getCause(), names);
                }
            } catch (TimeoutException ex) {
                throw failure("cannot describe topic " + e.getKey(), ex, names);
            }
        }
        return found;
    }

    /** Creates the missing topics; returns those another process created first. */
    private List<String> create(List<String> missing, Map<String, Cleanup> wanted)
            throws TopologyException, InterruptedException {
        if (missing.isEmpty()) {
            return List.of();
        }
        refuseIfTooFewBrokers(missing);
        List<NewTopic> specs =
                missing.stream().map(t -> spec(t, wanted.get(t), settings)).toList();
        List<String> raced = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<Void>> e :
                admin.createTopics(specs).values().entrySet()) {
            try {
                await(e.getValue());
                LOG.info(
                        "created topic {} (replication factor {}, min.insync.replicas {}, {})",
                        e.getKey(),
                        settings.replicationFactor(),
                        settings.minInsyncReplicas(),
                        wanted.get(e.getKey()) == Cleanup.COMPACT ? "compacted" : "retention");
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw failure("cannot create topic " + e.getKey(), ex.getCause(), missing);
                }
                raced.add(e.getKey());
            } catch (TimeoutException ex) {
                throw failure("cannot create topic " + e.getKey(), ex, missing);
            }
        }
        return raced;
    }

    private void refuseIfTooFewBrokers(List<String> missing) throws TopologyException, InterruptedException {
        int brokers;
        try {
            brokers = await(admin.describeCluster().nodes()).size();
        } catch (ExecutionException e) {
            throw failure("cannot count the Kafka brokers", e.getCause(), missing);
        } catch (TimeoutException e) {
            throw failure("cannot count the Kafka brokers", e, missing);
        }
        if (settings.replicationFactor() > brokers) {
            throw new TopologyException(
                    Reason.TOO_FEW_BROKERS,
                    "topic replication factor " + settings.replicationFactor() + " needs "
                            + settings.replicationFactor() + " Kafka brokers, but " + brokers + " "
                            + (brokers == 1 ? "is" : "are") + " up at "
                            + bootstrap + "; not creating " + missing
                            + ". Start more brokers, or lower " + settingsPrefix + ".topic-replication-factor"
                            + " (and topic-min-insync-replicas) to what this Kafka can hold",
                    null);
        }
    }

    /** What the existing topics have less of than configured, each also logged as a warning. */
    private List<Shortfall> check(Map<String, TopicDescription> existing, Map<String, Cleanup> wanted)
            throws TopologyException, InterruptedException {
        if (existing.isEmpty()) {
            return List.of();
        }
        Map<ConfigResource, Config> configs = describeConfigs(existing.keySet());
        List<Shortfall> shortfalls = new ArrayList<>();
        for (TopicDescription d : existing.values()) {
            Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, d.name()));
            if (config == null && configs.isEmpty()) {
                shortfalls.addAll(Shortfall.replication(d, settings));
            } else {
                shortfalls.addAll(Shortfall.of(d, config, wanted.get(d.name()) == Cleanup.COMPACT, settings));
            }
        }
        for (Shortfall s : shortfalls) {
            LOG.warn(
                    "{}; Cartograph does not change existing topics: alter it yourself (docs/operations.md, Topics)",
                    s);
        }
        return shortfalls;
    }

    /** The topics' configurations; empty when this principal may not read them (then they are not checked). */
    private Map<ConfigResource, Config> describeConfigs(Collection<String> names)
            throws TopologyException, InterruptedException {
        List<ConfigResource> resources = names.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        try {
            return await(admin.describeConfigs(resources).all());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                LOG.info(
                        "not allowed to read the configuration of {} ({}); only their replication factor is checked",
                        names,
                        e.getCause().getMessage());
                return Map.of();
            }
            throw failure("cannot read the configuration of " + names, e.getCause(), names);
        } catch (TimeoutException e) {
            throw failure("cannot read the configuration of " + names, e, names);
        }
    }

    private TopologyException failure(String what, Throwable cause, Collection<String> topics) {
        if (cause instanceof AuthorizationException) {
            return new TopologyException(
                    Reason.NOT_AUTHORIZED,
                    what + " at " + bootstrap + ": not authorized (" + cause.getMessage()
                            + "); topics " + topics + " must be created by an operator, or this principal granted"
                            + " CREATE and DESCRIBE on them",
                    cause);
        }
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
