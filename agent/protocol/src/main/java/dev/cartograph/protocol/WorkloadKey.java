package dev.cartograph.protocol;

import java.util.Objects;

/** Which workload, in which cluster; its Kafka key is {@code cluster/namespace/group/kind/name}. Immutable. */
public record WorkloadKey(String cluster, String namespace, String group, String kind, String name) {
    public WorkloadKey {
        Objects.requireNonNull(cluster, "cluster");
        namespace = namespace == null ? "" : namespace;
        group = group == null ? "" : group;
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    public String kafkaKey() {
        return cluster + "/" + namespace + "/" + group + "/" + kind + "/" + name;
    }

    /** Parses {@link #kafkaKey()}; empty for anything else. */
    public static java.util.Optional<WorkloadKey> parse(String key) {
        if (key == null) {
            return java.util.Optional.empty();
        }
        String[] p = key.split("/", -1);
        return p.length == 5 && !p[0].isEmpty() && !p[3].isEmpty() && !p[4].isEmpty()
                ? java.util.Optional.of(new WorkloadKey(p[0], p[1], p[2], p[3], p[4]))
                : java.util.Optional.empty();
    }
}
