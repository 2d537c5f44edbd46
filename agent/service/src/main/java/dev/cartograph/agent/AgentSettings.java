package dev.cartograph.agent;

import dev.cartograph.agent.fence.SelfFence;
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
 * @param fencing          when a cluster cut off from Kafka deletes the copies the broker re-places (ADR 0005)
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
        SelfFence.Settings fencing) {

    /** With {@link SelfFence.Settings#DEFAULT} fencing. */
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
        if (!cluster.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
            throw new IllegalArgumentException(
                    "cluster name '" + cluster + "' must be a DNS label (lower case, digits, '-', '.')");
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
        if (fencing.after().isPresent() && fencing.after().get().compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("self-fence-after ("
                    + fencing.after().get() + ") must be at least two heartbeat intervals ("
                    + heartbeatInterval.multipliedBy(2) + "), or a cluster fences its gangs between two heartbeats");
        }
    }
}
