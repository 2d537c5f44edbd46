package dev.cartograph.protocol;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One record on an agent's cluster topic ({@code P.from.CLUSTER.cluster}, compacted, one partition), as the
 * agent writes it and the broker reads it: the cluster's {@link Header} (key = the cluster), one record per
 * {@link Node} (key {@code node/NAME}) and per applied {@link Placed placement} (key {@code placement/ID}), and
 * a {@link Gone tombstone} when a node or placement is no longer there. Only what changed is written; the
 * header, written last in each round and as the heartbeat, tells a reader the records before it make one
 * consistent {@link ClusterSummary} ({@link ClusterAssembly}). Immutable.
 */
public sealed interface ClusterRecord {
    /** The record's Kafka key. */
    Key key();

    /** Which full publication of an agent a record belongs to: its incarnation, and how many times it re-sent everything since it started. */
    record Stamp(String incarnation, long resync) {
        public Stamp {
            Objects.requireNonNull(incarnation, "incarnation");
            if (resync < 0) {
                throw new IllegalArgumentException("resync cannot be negative");
            }
        }

        /** As a record's equality, written out: readers compare the stamp of every record they read. */
        @Override
        public boolean equals(Object o) {
            return this == o || (o instanceof Stamp s && resync == s.resync && incarnation.equals(s.incarnation));
        }

        @Override
        public int hashCode() {
            return 31 * incarnation.hashCode() + Long.hashCode(resync);
        }
    }

    /**
     * What the records of a cluster topic are about, and how they are keyed: the header under the cluster's
     * name (a DNS label, no '/'), nodes and placements under a prefix, so no two kinds share a key.
     */
    enum Kind {
        HEADER(""),
        NODE("node/"),
        PLACEMENT("placement/");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    /** A record's key: its kind and the name of what it is about (the cluster, a node, a placement id). Immutable. */
    record Key(Kind kind, String name) {
        public Key {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
        }

        public String kafkaKey() {
            return kind.prefix + name;
        }

        /** The key {@code kafkaKey} names; empty when it is null or names nothing. */
        public static Optional<Key> parse(String kafkaKey) {
            if (kafkaKey == null) {
                return Optional.empty();
            }
            for (Kind k : new Kind[] {Kind.NODE, Kind.PLACEMENT}) {
                if (kafkaKey.startsWith(k.prefix)) {
                    String name = kafkaKey.substring(k.prefix.length());
                    return name.isEmpty() ? Optional.empty() : Optional.of(new Key(k, name));
                }
            }
            return kafkaKey.isEmpty() || kafkaKey.contains("/")
                    ? Optional.empty()
                    : Optional.of(new Key(Kind.HEADER, kafkaKey));
        }

        /** For reasons: {@code node n1}, {@code placement p-1}, {@code header}. */
        public String describe() {
            return kind == Kind.HEADER ? "header" : kind.name().toLowerCase(java.util.Locale.ROOT) + " " + name;
        }
    }

    /**
     * The cluster's identity and heartbeat, written after the node and placement records of each round
     * (and alone as the heartbeat): {@code sequence} rises with every header of an incarnation;
     * {@code nodes} and {@code placements} count what the agent holds at that moment; {@code unwatched} lists the
     * catalog kinds it cannot watch at that moment ({@link ClusterSummary#unwatched()}).
     */
    record Header(
            String cluster,
            Map<String, String> labels,
            String agentVersion,
            Stamp stamp,
            long sequence,
            Instant heartbeat,
            int nodes,
            int placements,
            List<UnwatchedKind> unwatched)
            implements ClusterRecord {
        public Header {
            Objects.requireNonNull(cluster, "cluster");
            labels = Map.copyOf(labels);
            Objects.requireNonNull(agentVersion, "agentVersion");
            Objects.requireNonNull(stamp, "stamp");
            Objects.requireNonNull(heartbeat, "heartbeat");
            unwatched = List.copyOf(unwatched);
            if (sequence < 0 || nodes < 0 || placements < 0) {
                throw new IllegalArgumentException("sequence and counts cannot be negative");
            }
        }

        /** A header with every catalog kind watched. */
        public Header(
                String cluster,
                Map<String, String> labels,
                String agentVersion,
                Stamp stamp,
                long sequence,
                Instant heartbeat,
                int nodes,
                int placements) {
            this(cluster, labels, agentVersion, stamp, sequence, heartbeat, nodes, placements, List.of());
        }

        @Override
        public Key key() {
            return new Key(Kind.HEADER, cluster);
        }
    }

    /** One node as it is now, with its shape (labels, taints, allocatable) inline. */
    record Node(String cluster, Stamp stamp, NodeState node) implements ClusterRecord {
        public Node {
            Objects.requireNonNull(cluster, "cluster");
            Objects.requireNonNull(stamp, "stamp");
            Objects.requireNonNull(node, "node");
        }

        @Override
        public Key key() {
            return new Key(Kind.NODE, node.name());
        }
    }

    /** One placement the agent applied, as it reports it now. */
    record Placed(String cluster, Stamp stamp, PlacementReport placement) implements ClusterRecord {
        public Placed {
            Objects.requireNonNull(cluster, "cluster");
            Objects.requireNonNull(stamp, "stamp");
            Objects.requireNonNull(placement, "placement");
        }

        @Override
        public Key key() {
            return new Key(Kind.PLACEMENT, placement.placementId());
        }
    }

    /** A tombstone (no value): the node or placement {@code key} names is gone. */
    record Gone(Key key) implements ClusterRecord {
        public Gone {
            Objects.requireNonNull(key, "key");
            if (key.kind() == Kind.HEADER) {
                throw new IllegalArgumentException("a cluster header has no tombstone");
            }
        }
    }
}
