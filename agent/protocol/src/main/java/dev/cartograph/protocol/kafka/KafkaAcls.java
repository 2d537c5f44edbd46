package dev.cartograph.protocol.kafka;

import dev.cartograph.protocol.Topics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Kafka ACLs Cartograph needs, and nothing more: per agent, what one cluster's agent may do
 * (write and create its own {@code P.from.CLUSTER.*} topics, read its own {@code P.commands.CLUSTER}
 * in its own consumer group), and what the broker may do (read every agent's topics, create and
 * write the command topics, {@code P.placements} and {@code P.usage}, use its transactional id). Everything else is
 * denied by a Kafka with {@code allow.everyone.if.no.acl.found=false}, so agent A's credentials
 * cannot write B's topics or read B's commands. Also renders them as {@code kafka-acls.sh} command
 * lines (docs/operations.md shows exactly those) and, through {@link StrimziUsers}, as Strimzi
 * {@code KafkaUser} resources (docs/install.md). Immutable; thread-safe.
 *
 * <p>Only the operations that are not implied are listed: in Kafka, {@code READ} and {@code WRITE}
 * imply {@code DESCRIBE} (of a topic, group or transactional id); {@code CREATE} and
 * {@code DESCRIBE_CONFIGS} imply nothing.
 *
 * @param topics the topic names (their prefix {@code P})
 */
public record KafkaAcls(Topics topics) {

    /** A principal naming one identity: {@code User:NAME}, no wildcard. */
    private static final Pattern PRINCIPAL = Pattern.compile("User:[^*\\s]+");

    /** The command line each rendered ACL starts with; {@code $KAFKA} and {@code $ADMIN_CONFIG} are the operator's. */
    public static final String COMMAND =
            "kafka-acls.sh --bootstrap-server \"$KAFKA\" --command-config \"$ADMIN_CONFIG\" --add";

    public KafkaAcls {
        Objects.requireNonNull(topics, "topics");
    }

    /**
     * The consumer group of agent {@code cluster}'s command consumer (also its static member id):
     * {@code cartograph-agent-CLUSTER}.
     */
    public static String agentGroup(String cluster) {
        return "cartograph-agent-" + cluster;
    }

    /** The transactional id of the broker's placement producer: {@code P.placements-broker}. */
    public String brokerTransactionalId() {
        return topics.placements() + "-broker";
    }

    /**
     * What agent {@code cluster}, authenticated as {@code principal}, needs: WRITE and CREATE on the
     * topics prefixed {@code P.from.CLUSTER.}; READ on the topic {@code P.commands.CLUSTER} and on the
     * group {@code cartograph-agent-CLUSTER}.
     *
     * @param cluster   a DNS-1123 label (so no cluster's prefix covers another's)
     * @param principal e.g. {@code User:cartograph-agent-east}; one per cluster
     */
    public List<AclBinding> agent(String cluster, String principal) {
        requirePrincipal(principal);
        String own = topics.agentPrefix(cluster); // validates the cluster name
        return List.of(
                allow(ResourceType.TOPIC, own, PatternType.PREFIXED, principal, AclOperation.WRITE),
                allow(ResourceType.TOPIC, own, PatternType.PREFIXED, principal, AclOperation.CREATE),
                allow(ResourceType.TOPIC, topics.commands(cluster), PatternType.LITERAL, principal, AclOperation.READ),
                allow(ResourceType.GROUP, agentGroup(cluster), PatternType.LITERAL, principal, AclOperation.READ));
    }

    /**
     * What the broker, authenticated as {@code principal}, needs: READ on the topics prefixed
     * {@code P.from.} (it lists them to discover clusters and reads them by manual assignment, no
     * group); WRITE, CREATE and DESCRIBE_CONFIGS (it checks the durability of existing topics) on the
     * topics prefixed {@code P.commands.} and on {@code P.placements} and {@code P.usage}, which it also READs; WRITE on
     * its transactional id {@code P.placements-broker}.
     *
     * @param principal e.g. {@code User:cartograph-broker}; every broker replica shares it
     */
    public List<AclBinding> broker(String principal) {
        requirePrincipal(principal);
        List<AclBinding> acls = new ArrayList<>();
        acls.add(allow(ResourceType.TOPIC, topics.agentsPrefix(), PatternType.PREFIXED, principal, AclOperation.READ));
        for (AclOperation op : List.of(AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE_CONFIGS)) {
            acls.add(allow(ResourceType.TOPIC, topics.commandsPrefix(), PatternType.PREFIXED, principal, op));
        }
        for (String topic : List.of(topics.placements(), topics.usage())) {
            for (AclOperation op : List.of(
                    AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE_CONFIGS)) {
                acls.add(allow(ResourceType.TOPIC, topic, PatternType.LITERAL, principal, op));
            }
        }
        acls.add(allow(
                ResourceType.TRANSACTIONAL_ID,
                brokerTransactionalId(),
                PatternType.LITERAL,
                principal,
                AclOperation.WRITE));
        return List.copyOf(acls);
    }

    /**
     * The {@code kafka-acls.sh} command lines that create {@code acls}, one per principal and
     * resource (its operations together), in the order they first appear. {@code $KAFKA} is the
     * bootstrap servers, {@code $ADMIN_CONFIG} a client properties file of an identity allowed to
     * create ACLs.
     */
    public static List<String> commands(List<AclBinding> acls) {
        List<String> lines = new ArrayList<>();
        for (Grant grant : grants(acls)) {
            StringBuilder line =
                    new StringBuilder(COMMAND).append(" --allow-principal ").append(grant.principal());
            grant.operations().forEach(op -> line.append(" --operation ").append(operation(op)));
            line.append(' ').append(resource(grant.pattern()));
            if (grant.pattern().patternType() == PatternType.PREFIXED) {
                line.append(" --resource-pattern-type prefixed");
            }
            lines.add(line.toString());
        }
        return List.copyOf(lines);
    }

    /** One principal's operations on one resource pattern, as the renderers group them. */
    record Grant(String principal, ResourcePattern pattern, List<AclOperation> operations) {}

    /**
     * {@code acls} grouped per principal and resource pattern, in the order they first appear; only
     * ALLOW from any host can be rendered.
     */
    static List<Grant> grants(List<AclBinding> acls) {
        Map<List<Object>, List<AclOperation>> grouped = new LinkedHashMap<>();
        for (AclBinding acl : acls) {
            if (acl.entry().permissionType() != AclPermissionType.ALLOW
                    || !acl.entry().host().equals("*")) {
                throw new IllegalArgumentException("only ALLOW from any host is rendered, not " + acl);
            }
            grouped.computeIfAbsent(List.of(acl.entry().principal(), acl.pattern()), k -> new ArrayList<>())
                    .add(acl.entry().operation());
        }
        List<Grant> grants = new ArrayList<>();
        grouped.forEach((key, ops) ->
                grants.add(new Grant((String) key.get(0), (ResourcePattern) key.get(1), List.copyOf(ops))));
        return List.copyOf(grants);
    }

    private static AclBinding allow(
            ResourceType type, String name, PatternType patternType, String principal, AclOperation op) {
        return new AclBinding(
                new ResourcePattern(type, name, patternType),
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW));
    }

    private static void requirePrincipal(String principal) {
        if (principal == null || !PRINCIPAL.matcher(principal).matches()) {
            throw new IllegalArgumentException(
                    "principal '" + principal + "' must be User:NAME for one identity (no wildcard, no spaces)");
        }
    }

    /** kafka-acls.sh's spelling of an operation: {@code DESCRIBE_CONFIGS} is {@code DescribeConfigs}. */
    static String operation(AclOperation op) {
        StringBuilder name = new StringBuilder();
        for (String word : op.name().split("_")) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return name.toString();
    }

    private static String resource(ResourcePattern pattern) {
        return switch (pattern.resourceType()) {
            case TOPIC -> "--topic " + pattern.name();
            case GROUP -> "--group " + pattern.name();
            case TRANSACTIONAL_ID -> "--transactional-id " + pattern.name();
            case CLUSTER -> "--cluster";
            default -> throw new IllegalArgumentException("cannot render an ACL on " + pattern);
        };
    }
}
