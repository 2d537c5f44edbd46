package dev.cartograph.agent;

import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything an agent is configured with, validated once at the edge. Immutable.
 *
 * @param kafka            Kafka client settings passed through as given (bootstrap.servers, TLS, SASL…)
 * @param publishInterval  at most one summary per key per interval (conflation)
 * @param heartbeatInterval a cluster summary at least this often, even when nothing changed
 * @param allowedNamespaces namespaces commands may write to; empty means any except system namespaces
 * @param cluster          this cluster's name: a DNS-1123 label ({@link Topics#validCluster}), as it names the
 *                         agent's own topics {@code P.from.CLUSTER.*}
 * @param fencing          when a cluster cut off from Kafka deletes the copies the broker re-places (ADR 0005)
 * @param topicSettings    replication factor and min.insync.replicas of the topics the agent creates (its own
 *                         three), as the broker's {@code topic-replication-factor}/{@code topic-min-insync-replicas}
 */
public record AgentSettings(
        String cluster,
        Map<String, String> labels,
        String topicPrefix,
        Map<String, String> kafka,
        Duration publishInterval,
        Duration heartbeatInterval,
        Set<String> allowedNamespaces,
        boolean createNamespaces,
        SelfFence.Settings fencing,
        TopicSettings topicSettings) {

    /** With {@link TopicSettings#DEFAULTS} (3 replicas, 2 in sync). */
    public AgentSettings(
            String cluster,
            Map<String, String> labels,
            String topicPrefix,
            Map<String, String> kafka,
            Duration publishInterval,
            Duration heartbeatInterval,
            Set<String> allowedNamespaces,
            boolean createNamespaces,
            SelfFence.Settings fencing) {
        this(
                cluster,
                labels,
                topicPrefix,
                kafka,
                publishInterval,
                heartbeatInterval,
                allowedNamespaces,
                createNamespaces,
                fencing,
                TopicSettings.DEFAULTS);
    }

    /** With {@link SelfFence.Settings#DEFAULT} fencing and {@link TopicSettings#DEFAULTS}. */
    public AgentSettings(
            String cluster,
            Map<String, String> labels,
            String topicPrefix,
            Map<String, String> kafka,
            Duration publishInterval,
            Duration heartbeatInterval,
            Set<String> allowedNamespaces,
            boolean createNamespaces) {
        this(
                cluster,
                labels,
                topicPrefix,
                kafka,
                publishInterval,
                heartbeatInterval,
                allowedNamespaces,
                createNamespaces,
                SelfFence.Settings.DEFAULT);
    }

    public AgentSettings {
        Objects.requireNonNull(cluster, "cluster");
        if (!Topics.validCluster(cluster)) {
            throw new IllegalArgumentException("cluster name '" + cluster
                    + "' must be a DNS-1123 label (lower case letters, digits and '-', at most 63, no '.'):"
                    + " it names the agent's topics, and no cluster's topic prefix may cover another's");
        }
        labels = Map.copyOf(labels);
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        kafka = Map.copyOf(kafka);
        if (!kafka.containsKey("bootstrap.servers")) {
            throw new IllegalArgumentException("kafka bootstrap.servers is required");
        }
        if (publishInterval.isNegative()
                || publishInterval.isZero()
                || heartbeatInterval.compareTo(publishInterval) < 0) {
            throw new IllegalArgumentException(
                    "publish interval must be positive and no longer than the heartbeat interval");
        }
        allowedNamespaces = Set.copyOf(allowedNamespaces);
        Objects.requireNonNull(fencing, "fencing");
        Objects.requireNonNull(topicSettings, "topicSettings");
        if (fencing.after().isPresent() && fencing.after().get().compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("self-fence-after ("
                    + fencing.after().get() + ") must be at least two heartbeat intervals ("
                    + heartbeatInterval.multipliedBy(2) + "), or a cluster fences its gangs between two heartbeats");
        }
    }

    /** These settings with other topic settings. */
    public AgentSettings withTopicSettings(TopicSettings topics) {
        return new AgentSettings(
                cluster,
                labels,
                topicPrefix,
                kafka,
                publishInterval,
                heartbeatInterval,
                allowedNamespaces,
                createNamespaces,
                fencing,
                topics);
    }
}
