package dev.cartograph.agent;

import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.fence.SelfFence;
import dev.cartograph.agent.order.Deletions;
import dev.cartograph.interpreter.podsecurity.PodSecurityPolicy;
import dev.cartograph.protocol.TopicSettings;
import dev.cartograph.protocol.Topics;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

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
 * @param admission        what the agent refuses to write whatever the broker sends: pod security, protected namespaces
 * @param topicSettings    replication factor and min.insync.replicas of the topics the agent creates (its own
 *                         three), as the broker's {@code topic-replication-factor}/{@code topic-min-insync-replicas}
 * @param commands         how old a command may be when it is read, and how many deletes are remembered, in ConfigMap
 *                         {@code cartograph-agent-commands} of the agent's namespace ({@link Deletions.Limits})
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
        Admission admission,
        TopicSettings topicSettings,
        Deletions.Limits commands) {

    /**
     * What no command gets past, checked again on the member whatever the broker decided. Immutable.
     *
     * @param podSecurity      the pod security level of each namespace (as the broker's)
     * @param agentNamespace   where the agent itself runs: never written to
     * @param systemNamespaces never written to, besides {@link ApplyPolicy#SYSTEM_NAMESPACES} and the agent's own
     */
    public record Admission(PodSecurityPolicy podSecurity, String agentNamespace, Set<String> systemNamespaces) {
        /** Baseline everywhere; the agent in {@code cartograph-system}. */
        public static final Admission DEFAULT = new Admission(PodSecurityPolicy.DEFAULT, "cartograph-system", Set.of());

        private static final String NAMESPACE = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

        public Admission {
            Objects.requireNonNull(podSecurity, "podSecurity");
            Objects.requireNonNull(agentNamespace, "agentNamespace");
            systemNamespaces = Set.copyOf(systemNamespaces);
            for (String ns : new TreeSet<>(union(Set.of(agentNamespace), systemNamespaces))) {
                if (!ns.matches(NAMESPACE)) {
                    throw new IllegalArgumentException(
                            "'" + ns + "' is not a namespace name (lower case, digits, '-')");
                }
            }
            Set<String> both = new TreeSet<>(podSecurity.privilegedNamespaces());
            both.retainAll(union(ApplyPolicy.SYSTEM_NAMESPACES, union(Set.of(agentNamespace), systemNamespaces)));
            if (!both.isEmpty()) {
                throw new IllegalArgumentException("privileged namespaces " + both
                        + " are the agent's own or system namespaces, which no command may write into");
            }
        }

        /** Every namespace no command writes into: the system ones, the configured ones, the agent's own. */
        public Set<String> deniedNamespaces() {
            return union(ApplyPolicy.SYSTEM_NAMESPACES, union(Set.of(agentNamespace), systemNamespaces));
        }

        private static Set<String> union(Set<String> a, Set<String> b) {
            Set<String> out = new HashSet<>(a);
            out.addAll(b);
            return Set.copyOf(out);
        }
    }

    /** With the default {@link Admission} and {@link TopicSettings#DEFAULTS} (3 replicas, 2 in sync). */
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
                Admission.DEFAULT,
                TopicSettings.DEFAULTS,
                Deletions.Limits.DEFAULT);
    }

    /** With {@link Deletions.Limits#DEFAULT}: commands count for 7 days, 5,000 deletes remembered. */
    public AgentSettings(
            String cluster,
            Map<String, String> labels,
            String topicPrefix,
            Map<String, String> kafka,
            Duration publishInterval,
            Duration heartbeatInterval,
            Set<String> allowedNamespaces,
            boolean createNamespaces,
            SelfFence.Settings fencing,
            Admission admission,
            TopicSettings topicSettings) {
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
                admission,
                topicSettings,
                Deletions.Limits.DEFAULT);
    }

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
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(topicSettings, "topicSettings");
        Objects.requireNonNull(commands, "commands");
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
                admission,
                topics,
                commands);
    }

    /** These settings with another admission policy. */
    public AgentSettings withAdmission(Admission other) {
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
                other,
                topicSettings,
                commands);
    }

    /** These settings with other limits on commands read ({@link Deletions.Limits}). */
    public AgentSettings withCommands(Deletions.Limits other) {
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
                admission,
                topicSettings,
                other);
    }
}
