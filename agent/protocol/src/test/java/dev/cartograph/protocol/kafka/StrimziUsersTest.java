package dev.cartograph.protocol.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.protocol.Topics;
import org.junit.jupiter.api.Test;

class StrimziUsersTest {
    private final KafkaAcls acls = new KafkaAcls(new Topics("cartograph"));

    @Test
    void anAgentsKafkaUserGrantsItsOwnTopicsCommandsAndGroupAndNothingElse() {
        String yaml = StrimziUsers.kafkaUser(
                "cartograph-agent-gpu-east", "fleet", acls.agent("gpu-east", "User:cartograph-agent-gpu-east"));

        assertThat(yaml).isEqualTo("""
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaUser
                metadata:
                  name: cartograph-agent-gpu-east
                  labels:
                    strimzi.io/cluster: fleet
                spec:
                  authentication:
                    type: scram-sha-512
                  authorization:
                    type: simple
                    acls:
                      - resource:
                          type: topic
                          name: cartograph.from.gpu-east.
                          patternType: prefix
                        operations: [Write, Create]
                      - resource:
                          type: topic
                          name: cartograph.commands.gpu-east
                          patternType: literal
                        operations: [Read]
                      - resource:
                          type: group
                          name: cartograph-agent-gpu-east
                          patternType: literal
                        operations: [Read]
                """);
    }

    @Test
    void theBrokersKafkaUserUsesItsTransactionalIdAndDescribeConfigs() {
        String yaml = StrimziUsers.kafkaUser("cartograph-broker", "fleet", acls.broker("User:cartograph-broker"));

        assertThat(yaml)
                .contains("""
                      - resource:
                          type: transactionalId
                          name: cartograph.placements-broker
                          patternType: literal
                        operations: [Write]
                """)
                .contains("operations: [Read, Write, Create, DescribeConfigs]")
                .containsOnlyOnce("name: cartograph.from.\n");
    }

    @Test
    void anAclForAnotherPrincipalThanTheUserIsRefusedNamingBoth() {
        assertThatThrownBy(() -> StrimziUsers.kafkaUser(
                        "cartograph-agent-a", "fleet", acls.agent("b", "User:cartograph-agent-b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cartograph-agent-a")
                .hasMessageContaining("User:cartograph-agent-b");
    }
}
