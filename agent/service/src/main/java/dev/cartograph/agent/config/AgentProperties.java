package dev.cartograph.agent.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.format.MapFormat;
import io.micronaut.core.naming.conventions.StringConvention;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code cartograph.agent.*}, bound once at start (environment variables work too, e.g.
 * {@code CARTOGRAPH_AGENT_CLUSTER}, {@code CARTOGRAPH_AGENT_BOOTSTRAP_SERVERS}). Other Kafka client
 * settings go under {@code cartograph.agent.kafka} verbatim ({@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}, or {@code bootstrap.servers} itself). {@code self-fence-after} must stay below the
 * broker's {@code failover-timeout} (and {@code self-fence-running} match its {@code replace-running}):
 * see docs/operations.md. {@code pod-security-level} ({@code baseline} or {@code restricted}) and
 * {@code privileged-namespaces} mirror the broker's; {@code agent-namespace} and {@code system-namespaces} are never
 * written to, nor are kube-system, kube-public and kube-node-lease.
 * {@code topic-replication-factor} and {@code topic-min-insync-replicas} are those of
 * the agent's own topics ({@code P.from.CLUSTER.*}, created by the agent when missing), as the broker's
 * settings of the same names are of its topics. {@code command-max-age} (default 7 days, Kafka's default
 * {@code retention.ms}; at least 1 hour): a command issued longer ago when it is read is refused STALE, and a delete is
 * remembered that long (docs/protocol.md, "Commands read again").
 */
@ConfigurationProperties("cartograph.agent")
public record AgentProperties(
        @Nullable String cluster,
        @Bindable(defaultValue = "cartograph") String topicPrefix,
        @Nullable Map<String, String> labels,
        @Nullable String bootstrapServers,
        // FLAT: Kafka's dotted keys (security.protocol, sasl.jaas.config) stay whole; the default nests them away
        @Nullable @MapFormat(transformation = MapFormat.MapTransformation.FLAT, keyFormat = StringConvention.RAW)
        Map<String, String> kafka,

        @Nullable String kubeconfig,
        @Nullable String context,
        @Bindable(defaultValue = "2s") Duration publishInterval,
        @Bindable(defaultValue = "15s") Duration heartbeatInterval,
        @Nullable List<String> allowedNamespaces,
        @Bindable(defaultValue = "false") boolean createNamespaces,
        @Bindable(defaultValue = "true") boolean selfFence,
        @Bindable(defaultValue = "4m") Duration selfFenceAfter,
        @Bindable(defaultValue = "false") boolean selfFenceRunning,
        @Bindable(defaultValue = "baseline") String podSecurityLevel,
        @Nullable List<String> privilegedNamespaces,
        @Bindable(defaultValue = "cartograph-system") String agentNamespace,
        @Nullable List<String> systemNamespaces,
        @Bindable(defaultValue = "3") int topicReplicationFactor,
        @Bindable(defaultValue = "2") int topicMinInsyncReplicas,
        @Bindable(defaultValue = "7d") Duration commandMaxAge) {}
