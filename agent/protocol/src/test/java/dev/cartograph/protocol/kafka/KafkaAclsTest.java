package dev.cartograph.protocol.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.protocol.Topics;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class KafkaAclsTest {
    static final String LINE = "kafka-acls.sh --bootstrap-server \"$KAFKA\" --command-config \"$ADMIN_CONFIG\" --add";

    final KafkaAcls acls = new KafkaAcls(new Topics("cartograph"));

    @Test
    void agentMayWriteAndCreateUnderItsOwnPrefixAndReadOnlyItsOwnCommandsInItsOwnGroup() {
        // hand-written: 2 prefixed topic ACLs, 1 literal topic ACL, 1 group ACL
        assertThat(acls.agent("a", "User:agent-a"))
                .containsExactly(
                        allow(
                                ResourceType.TOPIC,
                                "cartograph.from.a.",
                                PatternType.PREFIXED,
                                "User:agent-a",
                                AclOperation.WRITE),
                        allow(
                                ResourceType.TOPIC,
                                "cartograph.from.a.",
                                PatternType.PREFIXED,
                                "User:agent-a",
                                AclOperation.CREATE),
                        allow(
                                ResourceType.TOPIC,
                                "cartograph.commands.a",
                                PatternType.LITERAL,
                                "User:agent-a",
                                AclOperation.READ),
                        allow(
                                ResourceType.GROUP,
                                "cartograph-agent-a",
                                PatternType.LITERAL,
                                "User:agent-a",
                                AclOperation.READ));
    }

    @Test
    void brokerMayReadEveryAgentsTopicsAndWriteCommandsAndPlacements() {
        String p = "User:cartograph-broker";
        assertThat(acls.broker(p))
                .containsExactly(
                        allow(ResourceType.TOPIC, "cartograph.from.", PatternType.PREFIXED, p, AclOperation.READ),
                        allow(ResourceType.TOPIC, "cartograph.commands.", PatternType.PREFIXED, p, AclOperation.WRITE),
                        allow(ResourceType.TOPIC, "cartograph.commands.", PatternType.PREFIXED, p, AclOperation.CREATE),
                        allow(
                                ResourceType.TOPIC,
                                "cartograph.commands.",
                                PatternType.PREFIXED,
                                p,
                                AclOperation.DESCRIBE_CONFIGS),
                        allow(ResourceType.TOPIC, "cartograph.placements", PatternType.LITERAL, p, AclOperation.READ),
                        allow(ResourceType.TOPIC, "cartograph.placements", PatternType.LITERAL, p, AclOperation.WRITE),
                        allow(ResourceType.TOPIC, "cartograph.placements", PatternType.LITERAL, p, AclOperation.CREATE),
                        allow(
                                ResourceType.TOPIC,
                                "cartograph.placements",
                                PatternType.LITERAL,
                                p,
                                AclOperation.DESCRIBE_CONFIGS),
                        allow(ResourceType.TOPIC, "cartograph.usage", PatternType.LITERAL, p, AclOperation.READ),
                        allow(ResourceType.TOPIC, "cartograph.usage", PatternType.LITERAL, p, AclOperation.WRITE),
                        allow(ResourceType.TOPIC, "cartograph.usage", PatternType.LITERAL, p, AclOperation.CREATE),
                        allow(
                                ResourceType.TOPIC,
                                "cartograph.usage",
                                PatternType.LITERAL,
                                p,
                                AclOperation.DESCRIBE_CONFIGS),
                        allow(
                                ResourceType.TRANSACTIONAL_ID,
                                "cartograph.placements-broker",
                                PatternType.LITERAL,
                                p,
                                AclOperation.WRITE));
    }

    @Test
    void noAclNamesAWildcardOrAnyHost() {
        assertThat(acls.agent("a", "User:agent-a")).allSatisfy(acl -> {
            assertThat(acl.pattern().name()).doesNotContain("*");
            assertThat(acl.entry().principal()).isEqualTo("User:agent-a");
            assertThat(acl.entry().permissionType()).isEqualTo(AclPermissionType.ALLOW);
        });
        assertThat(acls.broker("User:b"))
                .allSatisfy(acl -> assertThat(acl.pattern().name()).doesNotContain("*"));
    }

    @Test
    void refusesAWildcardPrincipalOrAClusterNameThatIsNotADnsLabel() {
        assertThatThrownBy(() -> acls.agent("a", "User:*")).hasMessageContaining("principal 'User:*'");
        assertThatThrownBy(() -> acls.broker("agent-a")).hasMessageContaining("must be User:NAME");
        // a dot would let cluster "a" (prefix cartograph.from.a.) cover "a.b"'s topics
        assertThatThrownBy(() -> acls.agent("a.b", "User:agent-a")).hasMessageContaining("DNS-1123 label");
    }

    @Test
    void rendersOneKafkaAclsCommandPerPrincipalAndResource() {
        assertThat(KafkaAcls.commands(acls.agent("gpu-east", "User:agent-gpu-east")))
                .containsExactly(
                        LINE + " --allow-principal User:agent-gpu-east --operation Write --operation Create"
                                + " --topic cartograph.from.gpu-east. --resource-pattern-type prefixed",
                        LINE
                                + " --allow-principal User:agent-gpu-east --operation Read --topic cartograph.commands.gpu-east",
                        LINE
                                + " --allow-principal User:agent-gpu-east --operation Read --group cartograph-agent-gpu-east");
        assertThat(KafkaAcls.commands(acls.broker("User:broker")))
                .containsExactly(
                        LINE + " --allow-principal User:broker --operation Read --topic cartograph.from."
                                + " --resource-pattern-type prefixed",
                        LINE
                                + " --allow-principal User:broker --operation Write --operation Create --operation DescribeConfigs"
                                + " --topic cartograph.commands. --resource-pattern-type prefixed",
                        LINE + " --allow-principal User:broker --operation Read --operation Write --operation Create"
                                + " --operation DescribeConfigs --topic cartograph.placements",
                        LINE + " --allow-principal User:broker --operation Read --operation Write --operation Create"
                                + " --operation DescribeConfigs --topic cartograph.usage",
                        LINE
                                + " --allow-principal User:broker --operation Write --transactional-id cartograph.placements-broker");
    }

    @Test
    void renderingRefusesWhatItCannotSayFaithfully() {
        AclBinding deny = new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry("User:x", "*", AclOperation.READ, AclPermissionType.DENY));
        assertThatThrownBy(() -> KafkaAcls.commands(List.of(deny))).hasMessageContaining("only ALLOW");
    }

    static AclBinding allow(ResourceType type, String name, PatternType pattern, String principal, AclOperation op) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW));
    }
}
