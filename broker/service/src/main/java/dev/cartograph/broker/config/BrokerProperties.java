package dev.cartograph.broker.config;

import dev.cartograph.protocol.MetadataKeys;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.format.MapFormat;
import io.micronaut.core.naming.conventions.StringConvention;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code cartograph.broker.*}, bound once at start (environment variables work too, e.g.
 * {@code CARTOGRAPH_BROKER_BOOTSTRAP_SERVERS}, {@code CARTOGRAPH_BROKER_KUBECONFIG}). Other Kafka client
 * settings go under {@code cartograph.broker.kafka} verbatim. {@code pod-security-level} is {@code baseline}
 * or {@code restricted}; {@code privileged-namespaces} lists the namespaces whose workloads are not checked.
 * REST API access: {@code auth-mode} ({@code hub},
 * the default, or {@code token-file} with {@code auth-token-file}), {@code auth-cache-ttl}, {@code auth-cache-size}.
 * {@code usage-retention}: how long hours of GPU usage are kept (at least one hour). {@code topology-levels}: the node
 * label keys whose values are topology domains, widest first, comma separated.
 */
@ConfigurationProperties("cartograph.broker")
public record BrokerProperties(
        @Nullable String id,
        @Bindable(defaultValue = "cartograph") String topicPrefix,
        @Nullable String bootstrapServers,
        // FLAT: Kafka's dotted keys (security.protocol, sasl.jaas.config) stay whole; the default nests them away
        @Nullable @MapFormat(transformation = MapFormat.MapTransformation.FLAT, keyFormat = StringConvention.RAW)
        Map<String, String> kafka,

        @Nullable String kubeconfig,
        @Nullable String context,
        @Bindable(defaultValue = "45s") Duration heartbeatTimeout,
        @Bindable(defaultValue = "5m") Duration failoverTimeout,

        @Bindable(defaultValue = MetadataKeys.FEDERATE_DEFAULT)
        String federationLabel,

        @Bindable(defaultValue = "BIN_PACK") String policy,
        @Bindable(defaultValue = "false") boolean replaceRunning,
        @Nullable String leaseNamespace,
        @Bindable(defaultValue = "cartograph-broker") String leaseName,
        @Bindable(defaultValue = "1s") Duration tick,
        @Bindable(defaultValue = "3") int topicReplicationFactor,
        @Bindable(defaultValue = "2") int topicMinInsyncReplicas,
        @Bindable(defaultValue = "10000") int maxPodsPerGang,
        @Bindable(defaultValue = "10m") Duration startTimeout,
        @Bindable(defaultValue = "baseline") String podSecurityLevel,
        @Nullable List<String> privilegedNamespaces,
        @Bindable(defaultValue = "hub") String authMode,
        @Nullable String authTokenFile,
        @Bindable(defaultValue = "10s") Duration authCacheTtl,
        @Bindable(defaultValue = "10000") int authCacheSize,
        @Bindable(defaultValue = "90d") Duration usageRetention,

        @Bindable(defaultValue = dev.cartograph.fleet.TopologyLevels.DEFAULT_TEXT)
        List<String> topologyLevels) {}
