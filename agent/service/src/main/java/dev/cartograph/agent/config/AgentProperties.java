package dev.cartograph.agent.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code cartograph.agent.*}, bound once at start (environment variables work too, e.g.
 * {@code CARTOGRAPH_AGENT_CLUSTER}). Kafka client settings go under {@code cartograph.agent.kafka}
 * verbatim ({@code bootstrap.servers}, {@code security.protocol}, {@code sasl.*}, {@code ssl.*}).
 */
@ConfigurationProperties("cartograph.agent")
public record AgentProperties(
        String cluster,
        @Bindable(defaultValue = "cartograph") String topicPrefix,
        Map<String, String> labels,
        Map<String, String> kafka,
        String kubeconfig,
        String context,
        @Bindable(defaultValue = "2s") Duration publishInterval,
        @Bindable(defaultValue = "15s") Duration heartbeatInterval,
        List<String> allowedNamespaces,
        @Bindable(defaultValue = "false") boolean createNamespaces) {
}
