package dev.cartograph.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.ApplicationContext;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's Kafka client settings, as an operator writes them ({@code cartograph.agent.kafka.security.protocol}
 * in YAML, or the same key as a property), reach the clients verbatim: dotted Kafka keys stay whole.
 */
@Timeout(30)
class AgentKafkaSettingsTest {
    @Test
    void dottedKafkaSettingsPassThroughVerbatim() {
        // no cartograph.agent.cluster: the factory stays off, only the properties bind
        try (ApplicationContext ctx = ApplicationContext.run(Map.of(
                "cartograph.agent.bootstrap-servers", "kafka:9093",
                "cartograph.agent.kafka.security.protocol", "SASL_SSL",
                "cartograph.agent.kafka.sasl.mechanism", "SCRAM-SHA-512",
                "cartograph.agent.kafka.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"agent-a\" password=\"pw\";",
                "cartograph.agent.kafka.ssl.truststore.location", "/etc/kafka/ca.p12",
                "cartograph.agent.kafka.ssl.truststore.type", "PKCS12"))) {
            AgentProperties p = ctx.getBean(AgentProperties.class);
            assertThat(p.kafka())
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("ssl.truststore.location", "/etc/kafka/ca.p12")
                    .containsEntry("ssl.truststore.type", "PKCS12")
                    .containsEntry(
                            "sasl.jaas.config",
                            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"agent-a\" password=\"pw\";");
        }
    }
}
