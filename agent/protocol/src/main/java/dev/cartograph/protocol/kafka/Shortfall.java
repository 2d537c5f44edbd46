package dev.cartograph.protocol.kafka;

import dev.cartograph.protocol.TopicSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;

/**
 * An existing topic that is less durable than configured: {@code found} where {@code wanted} was asked for.
 * {@link #of} compares one topic with the settings, without asking Kafka anything. Immutable.
 */
public record Shortfall(String topic, Setting setting, String found, String wanted) {

    /** What an existing topic has less of than configured. */
    public enum Setting {
        REPLICATION_FACTOR,
        MIN_INSYNC_REPLICAS,
        CLEANUP_POLICY,
        UNCLEAN_LEADER_ELECTION
    }

    /**
     * What the topic {@code d}, configured as {@code config} (absent: Kafka's defaults), has less of than
     * {@code settings} and, for a compacted topic, compaction.
     */
    static List<Shortfall> of(TopicDescription d, Config config, boolean compacted, TopicSettings settings) {
        List<Shortfall> shortfalls = new ArrayList<>(replication(d, settings));
        String minIsr = value(config, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1");
        if (Integer.parseInt(minIsr) < settings.minInsyncReplicas()) {
            shortfalls.add(new Shortfall(
                    d.name(), Setting.MIN_INSYNC_REPLICAS, minIsr, String.valueOf(settings.minInsyncReplicas())));
        }
        String cleanup = value(config, TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
        if (compacted && !cleanup.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            shortfalls.add(
                    new Shortfall(d.name(), Setting.CLEANUP_POLICY, cleanup, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        if (Boolean.parseBoolean(value(config, TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false"))) {
            shortfalls.add(new Shortfall(d.name(), Setting.UNCLEAN_LEADER_ELECTION, "true", "false"));
        }
        return shortfalls;
    }

    /** Whether the topic {@code d} has fewer replicas than {@code settings} ask for (all that a topic's description shows). */
    static List<Shortfall> replication(TopicDescription d, TopicSettings settings) {
        int replicas =
                d.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
        if (replicas < settings.replicationFactor()) {
            return List.of(new Shortfall(
                    d.name(),
                    Setting.REPLICATION_FACTOR,
                    String.valueOf(replicas),
                    String.valueOf(settings.replicationFactor())));
        }
        return List.of();
    }

    private static String value(Config config, String name, String absent) {
        return config == null || config.get(name) == null || config.get(name).value() == null
                ? absent
                : config.get(name).value();
    }

    @Override
    public String toString() {
        return "topic " + topic + " has "
                + setting.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + found + " where "
                + wanted + " is configured";
    }
}
