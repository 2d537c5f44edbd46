package dev.cartograph.protocol;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Topic names under a configurable prefix P. What each agent writes goes to topics of its own
 * cluster, {@code P.from.CLUSTER.cluster} and {@code P.from.CLUSTER.workloads} (compacted summaries)
 * and {@code P.from.CLUSTER.events} (command results), so a prefixed Kafka ACL lets agent CLUSTER
 * write there and nowhere else, and the broker takes the cluster from the topic, never from the
 * record ({@link #owner}). The broker writes {@code P.commands.CLUSTER} (one per cluster, read by
 * that cluster's agent only), {@code P.placements} (its compacted decisions, read by brokers
 * only) and {@code P.usage} (GPU time per hour, brokers only). Immutable.
 */
public record Topics(String prefix) {
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

    public Topics {
        Objects.requireNonNull(prefix, "prefix");
        if (!LEGAL.matcher(prefix).matches()) {
            throw new IllegalArgumentException(
                    "topic prefix '" + prefix + "' may use only letters, digits, '.', '_' and '-'");
        }
    }

    /** {@code P.placements}: the broker's decisions; no agent reads or writes it. */
    public String placements() {
        return prefix + ".placements";
    }

    /**
     * {@code P.usage}: the leader's GPU-seconds per hour (one compacted record per UTC hour, running totals); no
     * agent reads or writes it.
     */
    public String usage() {
        return prefix + ".usage";
    }

    public String commands(String cluster) {
        return commandsPrefix() + requireCluster(cluster);
    }

    // ---- per-cluster identity (issue 13): everything an agent writes is under its own prefix ----

    /** A cluster name that can own topics: a DNS-1123 label (no dots, so no cluster's prefix covers another's). */
    private static final Pattern CLUSTER = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    /** Which of its own topics an agent writes. */
    public enum AgentTopic {
        /** compacted cluster summaries, key = cluster */
        CLUSTER("cluster", true),
        /** compacted workload summaries, key = cluster/namespace/group/kind/name; tombstone on delete */
        WORKLOADS("workloads", true),
        /** command results, key = placement id; deleted by age */
        EVENTS("events", false);

        private final String suffix;
        private final boolean compacted;

        AgentTopic(String suffix, boolean compacted) {
            this.suffix = suffix;
            this.compacted = compacted;
        }

        public String suffix() {
            return suffix;
        }

        /** Whether the topic keeps the newest record per key (summaries) rather than records younger than its retention. */
        public boolean compacted() {
            return compacted;
        }
    }

    /** A topic an agent writes, parsed: whose it is and which. */
    public record Owned(String cluster, AgentTopic topic) {}

    /** True for a name a cluster can have: a DNS-1123 label. */
    public static boolean validCluster(String cluster) {
        return cluster != null && CLUSTER.matcher(cluster).matches();
    }

    private static String requireCluster(String cluster) {
        if (!validCluster(cluster)) {
            throw new IllegalArgumentException(
                    "cluster name '" + cluster
                            + "' cannot name a topic: it must be a DNS-1123 label (lower case letters, digits and '-', at most 63)");
        }
        return cluster;
    }

    /** {@code P.from.} — every topic any agent writes starts with this (the broker reads this prefix). */
    public String agentsPrefix() {
        return prefix + ".from.";
    }

    /** {@code P.from.CLUSTER.} — the one prefix agent CLUSTER may write (a prefixed Kafka ACL). */
    public String agentPrefix(String cluster) {
        return agentsPrefix() + requireCluster(cluster) + ".";
    }

    /** {@code P.commands.} — every command topic starts with this (the broker writes this prefix). */
    public String commandsPrefix() {
        return prefix + ".commands.";
    }

    /** {@code P.from.CLUSTER.cluster|workloads|events}. */
    public String of(String cluster, AgentTopic topic) {
        return agentPrefix(cluster) + topic.suffix();
    }

    /** The cluster and kind of an agent-written topic; empty for any other topic. */
    public Optional<Owned> owner(String topic) {
        if (topic == null || !topic.startsWith(agentsPrefix())) {
            return Optional.empty();
        }
        String rest = topic.substring(agentsPrefix().length());
        int dot = rest.indexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        String cluster = rest.substring(0, dot);
        String suffix = rest.substring(dot + 1);
        if (!validCluster(cluster)) {
            return Optional.empty();
        }
        for (AgentTopic t : AgentTopic.values()) {
            if (t.suffix().equals(suffix)) {
                return Optional.of(new Owned(cluster, t));
            }
        }
        return Optional.empty();
    }
}
