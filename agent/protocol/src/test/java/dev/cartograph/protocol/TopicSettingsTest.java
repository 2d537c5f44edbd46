package dev.cartograph.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class TopicSettingsTest {

    @Test
    void defaultsSurviveOneBrokerDown() {
        assertThat(TopicSettings.DEFAULTS).isEqualTo(new TopicSettings(3, 2));
        assertThat(TopicSettings.SINGLE_BROKER).isEqualTo(new TopicSettings(1, 1));
    }

    @Test
    void refusesMoreInSyncReplicasThanReplicas() {
        assertThatThrownBy(() -> new TopicSettings(2, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "topic-min-insync-replicas (3) cannot exceed topic-replication-factor (2): Kafka would refuse every acks=all write");
    }

    @Test
    void refusesNoReplicasAndNoInSyncReplicas() {
        assertThatThrownBy(() -> new TopicSettings(0, 1))
                .hasMessageContaining("topic-replication-factor must be 1..32767, not 0");
        assertThatThrownBy(() -> new TopicSettings(-1, 1))
                .hasMessageContaining("not -1"); // Kafka's "broker default" is not offered
        assertThatThrownBy(() -> new TopicSettings(3, 0))
                .hasMessageContaining("topic-min-insync-replicas must be at least 1, not 0");
    }
}
