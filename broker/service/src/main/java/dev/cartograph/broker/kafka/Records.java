package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.ClusterRecord;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.NodeParts;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.Owned;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one record read from Kafka means for the coordinator, decided from its topic, key and value
 * alone. A record on an agent's topic speaks for the cluster named by the TOPIC ({@link Topics#owner}),
 * which only that cluster's agent may write: one that claims another cluster — a cluster header's key or
 * {@code cluster}, a node or placement record's {@code cluster}, a workload key's cluster part, a command
 * result's {@code cluster} — is poison, as is one that cannot be decoded. A cluster topic's records are
 * parts of a summary ({@link Read.Part}) that the reader puts together. Stateless but for the node parts it
 * shares among the nodes it decodes ({@link NodeParts}): one reader's thread only.
 */
final class Records {
    private static final Read SKIP = new Read.Skip();

    private final Topics topics;
    private final NodeParts parts = new NodeParts();
    /** Each topic's owner, parsed once (the topics read are few). */
    private final Map<String, Optional<Owned>> owners = new HashMap<>();

    Records(Topics topics) {
        this.topics = topics;
    }

    /** The meaning of one record. */
    sealed interface Read {
        /** Hand {@code input} to the coordinator. */
        record Deliver(Input input) implements Read {}

        /** A record of {@code cluster}'s cluster topic: part of its next summary (a header completes one). */
        record Part(String cluster, ClusterRecord record) implements Read {}

        /**
         * Refuse it: counted, logged once with its offset and {@code reason}, skipped. {@code unreadable}: the
         * node or placement of a cluster whose record this was, no longer known (what was held for it is dropped).
         */
        record Poison(String reason, Optional<Unreadable> unreadable) implements Read {
            Poison(String reason) {
                this(reason, Optional.empty());
            }
        }

        /** The key of a cluster topic's record that could not be read. */
        record Unreadable(String cluster, ClusterRecord.Key key) {}

        /** Nothing to act on: a topic that is not Cartograph's. */
        record Skip() implements Read {}
    }

    /** What the record {@code key}/{@code value} (either may be null) on {@code topic} means. */
    Read read(String topic, String key, byte[] value) {
        if (topic.equals(topics.placements())) {
            return placement(key, value);
        }
        Optional<Owned> owner = owners.computeIfAbsent(topic, topics::owner);
        if (owner.isEmpty()) {
            return SKIP;
        }
        String cluster = owner.get().cluster();
        return switch (owner.get().topic()) {
            case CLUSTER -> cluster(topic, cluster, key, value);
            case WORKLOADS -> workload(topic, cluster, key, value);
            case EVENTS -> result(topic, cluster, value);
        };
    }

    private Read cluster(String topic, String cluster, String key, byte[] value) {
        Optional<ClusterRecord.Key> parsed = ClusterRecord.Key.parse(key);
        if (parsed.isPresent()
                && parsed.get().kind() == ClusterRecord.Kind.HEADER
                && !parsed.get().name().equals(cluster)) {
            return claims(topic, parsed.get().name());
        }
        Decoded<ClusterRecord> decoded = Wire.decodeCluster(key, value, parts);
        if (decoded instanceof Decoded.Failed<ClusterRecord> f) {
            String what = parsed.map(k -> "cluster " + cluster + ", " + k.describe() + ": ")
                    .orElse("cluster " + cluster + ": ");
            return new Read.Poison(
                    what + f.reason(),
                    parsed.filter(k -> k.kind() != ClusterRecord.Kind.HEADER)
                            .map(k -> new Read.Unreadable(cluster, k)));
        }
        ClusterRecord r = ((Decoded.Ok<ClusterRecord>) decoded).value();
        String claimed = claimedCluster(r).orElse(cluster);
        return claimed.equals(cluster) ? new Read.Part(cluster, r) : claims(topic, claimed);
    }

    private static Optional<String> claimedCluster(ClusterRecord r) {
        if (r instanceof ClusterRecord.Header h) {
            return Optional.of(h.cluster());
        } else if (r instanceof ClusterRecord.Node n) {
            return Optional.of(n.cluster());
        } else if (r instanceof ClusterRecord.Placed p) {
            return Optional.of(p.cluster());
        }
        return Optional.empty(); // a tombstone: its cluster is its topic's
    }

    private Read workload(String topic, String cluster, String key, byte[] value) {
        Optional<WorkloadKey> parsed = WorkloadKey.parse(key);
        if (parsed.isEmpty()) {
            return new Read.Poison("key '" + key + "' is not cluster/namespace/group/kind/name");
        }
        WorkloadKey k = parsed.get();
        if (!k.cluster().equals(cluster)) {
            return claims(topic, k.cluster());
        }
        if (value == null) {
            return deliver(new Input.Workload(k, Optional.empty()));
        }
        return decoded(
                Wire.decodeWorkload(value),
                (WorkloadSummary s) -> s.key().cluster().equals(cluster)
                        ? deliver(new Input.Workload(k, Optional.of(s)))
                        : claims(topic, s.key().cluster()));
    }

    private Read result(String topic, String cluster, byte[] value) {
        return decoded(
                Wire.decodeResult(value),
                (CommandResult r) ->
                        r.cluster().equals(cluster) ? deliver(new Input.Result(r)) : claims(topic, r.cluster()));
    }

    private static Read placement(String uid, byte[] value) {
        if (value == null) {
            return deliver(new Input.Placement(uid, Optional.empty()));
        }
        return decoded(
                Wire.decodePlacement(value),
                (PlacementRecord p) -> deliver(new Input.Placement(p.uid(), Optional.of(p))));
    }

    private static Read claims(String topic, String claimed) {
        return new Read.Poison("record on " + topic + " claims cluster " + claimed);
    }

    private static Read deliver(Input input) {
        return new Read.Deliver(input);
    }

    private static <T> Read decoded(Decoded<T> decoded, Function<T, Read> ok) {
        if (decoded instanceof Decoded.Ok<T> o) {
            return ok.apply(o.value());
        }
        return new Read.Poison(((Decoded.Failed<T>) decoded).reason());
    }
}
