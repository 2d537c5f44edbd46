package dev.cartograph.protocol.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ProducersTest {
    @Test
    void settingsPassThroughButCannotTurnDurabilityOff() {
        Map<String, Object> config = Producers.durable(Map.of(
                "bootstrap.servers",
                "kafka:9092",
                "acks",
                "1",
                "enable.idempotence",
                "false",
                "compression.type",
                "lz4"));
        assertThat(config)
                .containsEntry("bootstrap.servers", "kafka:9092")
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true)
                .containsEntry("compression.type", "lz4");
    }

    @Test
    void compressionIsZstdUnlessSaidOtherwise() {
        assertThat(Producers.durable(Map.of("bootstrap.servers", "kafka:9092")))
                .containsEntry("compression.type", "zstd");
    }
}
