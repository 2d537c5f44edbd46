package dev.cartograph.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.agent.order.Deletions;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code cartograph.agent.command-max-age}: Kafka's default retention of 7 days unless set, never under an hour. */
@Timeout(30)
class CommandMaxAgeSettingTest {
    static AgentProperties bound(Map<String, Object> extra) {
        // no cartograph.agent.cluster in the context: the factory stays off, only the properties bind
        Map<String, Object> props = new HashMap<>(Map.of("cartograph.agent.bootstrap-servers", "kafka:9093"));
        props.putAll(extra);
        try (ApplicationContext ctx = ApplicationContext.run(props)) {
            AgentProperties p = ctx.getBean(AgentProperties.class);
            return new AgentProperties(
                    "east",
                    p.topicPrefix(),
                    p.labels(),
                    p.bootstrapServers(),
                    p.kafka(),
                    p.kubeconfig(),
                    p.context(),
                    p.publishInterval(),
                    p.heartbeatInterval(),
                    p.allowedNamespaces(),
                    p.createNamespaces(),
                    p.selfFence(),
                    p.selfFenceAfter(),
                    p.selfFenceRunning(),
                    p.podSecurityLevel(),
                    p.privilegedNamespaces(),
                    p.agentNamespace(),
                    p.systemNamespaces(),
                    p.topicReplicationFactor(),
                    p.topicMinInsyncReplicas(),
                    p.commandMaxAge());
        }
    }

    @Test
    void sevenDaysUnlessSetAndNeverUnderAnHour() {
        assertThat(AgentFactory.settings(bound(Map.of())).commands())
                .isEqualTo(new Deletions.Limits(Duration.ofDays(7), 5_000));
        assertThat(AgentFactory.settings(bound(Map.of("cartograph.agent.command-max-age", "36h")))
                        .commands()
                        .maxAge())
                .isEqualTo(Duration.ofHours(36));
        assertThatThrownBy(() -> AgentFactory.settings(bound(Map.of("cartograph.agent.command-max-age", "30m"))))
                .hasMessage("command-max-age must be at least PT1H, not PT30M: a shorter one refuses commands an agent"
                        + " merely read late");
    }
}
