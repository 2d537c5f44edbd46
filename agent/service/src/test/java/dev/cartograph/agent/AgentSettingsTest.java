package dev.cartograph.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.protocol.TopicSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class AgentSettingsTest {

    static AgentSettings named(String cluster) {
        return new AgentSettings(
                cluster,
                Map.of(),
                "cartograph",
                Map.of("bootstrap.servers", "kafka:9092"),
                Duration.ofSeconds(2),
                Duration.ofSeconds(15),
                Set.of(),
                false);
    }

    @Test
    void aClusterNameWithADotIsRefusedForItWouldShareAnotherClustersTopicPrefix() {
        // "a.b" would write cartograph.from.a.b.cluster, under cluster "a"'s prefix cartograph.from.a.
        assertThatThrownBy(() -> named("a.b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cluster name 'a.b' must be a DNS-1123 label")
                .hasMessageContaining("no cluster's topic prefix may cover another's");
        assertThatThrownBy(() -> named("GPU")).hasMessageContaining("cluster name 'GPU'");
        assertThat(named("gpu-east-2").cluster()).isEqualTo("gpu-east-2");
    }

    @Test
    void topicsAreReplicatedAsTheBrokersUnlessConfigured() {
        assertThat(named("a").topicSettings()).isEqualTo(TopicSettings.DEFAULTS);
        assertThat(named("a").withTopicSettings(TopicSettings.SINGLE_BROKER).topicSettings())
                .isEqualTo(TopicSettings.SINGLE_BROKER);
    }
}
