package dev.cartograph.protocol;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Topic names under a configurable prefix: {@code P.clusters} and {@code P.workloads} (compacted
 * summaries), {@code P.commands.CLUSTER} (one per cluster, so Kafka ACLs can confine each agent to
 * its own), {@code P.events} (command results) and {@code P.placements} (the broker's compacted
 * decisions). Immutable.
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

    public String clusters() {
        return prefix + ".clusters";
    }

    public String workloads() {
        return prefix + ".workloads";
    }

    public String events() {
        return prefix + ".events";
    }

    public String placements() {
        return prefix + ".placements";
    }

    public String commands(String cluster) {
        if (!LEGAL.matcher(cluster).matches()) {
            throw new IllegalArgumentException("cluster name '" + cluster + "' cannot name a topic");
        }
        return prefix + ".commands." + cluster;
    }
}
