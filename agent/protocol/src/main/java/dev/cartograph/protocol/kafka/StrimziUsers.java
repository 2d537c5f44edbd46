package dev.cartograph.protocol.kafka;

import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;

/**
 * {@link KafkaAcls} rendered as Strimzi {@code KafkaUser} resources ({@code kafka.strimzi.io/v1beta2},
 * SCRAM-SHA-512 authentication, {@code simple} authorization), for operators who run Kafka with the
 * Strimzi operator: the User Operator then creates the principal, its password Secret and exactly
 * these ACLs. docs/install.md shows what this renders, and a test keeps the two identical.
 *
 * <p>A SCRAM KafkaUser named {@code N} authenticates as principal {@code User:N}, so the principal of
 * every ACL must be {@code User:} + the user's name.
 */
public final class StrimziUsers {
    private StrimziUsers() {}

    /**
     * A {@code KafkaUser} YAML document for {@code name} on Strimzi Kafka cluster {@code kafkaCluster},
     * granting {@code acls}.
     *
     * @throws IllegalArgumentException if an ACL names another principal than {@code User:name}, or is
     *     not ALLOW from any host, or is on a resource Strimzi's simple authorization cannot express
     */
    public static String kafkaUser(String name, String kafkaCluster, List<AclBinding> acls) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kafkaCluster, "kafkaCluster");
        StringBuilder yaml = new StringBuilder()
                .append("apiVersion: kafka.strimzi.io/v1beta2\n")
                .append("kind: KafkaUser\n")
                .append("metadata:\n")
                .append("  name: ")
                .append(name)
                .append('\n')
                .append("  labels:\n")
                .append("    strimzi.io/cluster: ")
                .append(kafkaCluster)
                .append('\n')
                .append("spec:\n")
                .append("  authentication:\n")
                .append("    type: scram-sha-512\n")
                .append("  authorization:\n")
                .append("    type: simple\n")
                .append("    acls:\n");
        for (KafkaAcls.Grant grant : KafkaAcls.grants(acls)) {
            if (!grant.principal().equals("User:" + name)) {
                throw new IllegalArgumentException("KafkaUser " + name + " authenticates as User:" + name
                        + ", but an ACL is for " + grant.principal());
            }
            ResourcePattern pattern = grant.pattern();
            yaml.append("      - resource:\n")
                    .append("          type: ")
                    .append(resourceType(pattern))
                    .append('\n')
                    .append("          name: ")
                    .append(pattern.name())
                    .append('\n')
                    .append("          patternType: ")
                    .append(pattern.patternType() == PatternType.PREFIXED ? "prefix" : "literal")
                    .append('\n')
                    .append("        operations: [");
            yaml.append(String.join(
                            ", ",
                            grant.operations().stream()
                                    .map(KafkaAcls::operation)
                                    .toList()))
                    .append("]\n");
        }
        return yaml.toString();
    }

    private static String resourceType(ResourcePattern pattern) {
        return switch (pattern.resourceType()) {
            case TOPIC -> "topic";
            case GROUP -> "group";
            case TRANSACTIONAL_ID -> "transactionalId";
            default -> throw new IllegalArgumentException("Strimzi's simple authorization cannot grant " + pattern);
        };
    }
}
