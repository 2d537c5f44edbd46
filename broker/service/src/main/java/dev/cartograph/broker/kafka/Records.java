package dev.cartograph.broker.kafka;

import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.protocol.ClusterSummary;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.Topics;
import dev.cartograph.protocol.Topics.Owned;
import dev.cartograph.protocol.Wire;
import dev.cartograph.protocol.WorkloadKey;
import dev.cartograph.protocol.WorkloadSummary;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one record read from Kafka means for the coordinator, decided from its topic, key and value
 * alone. A record on an agent's topic speaks for the cluster named by the TOPIC ({@link Topics#owner}),
 * which only that cluster's agent may write: one that claims another cluster — a cluster summary's
 * {@code cluster}, a workload key's cluster part, a command result's {@code cluster} — is poison, as is
 * one that cannot be decoded. Pure and stateless; thread-safe.
 */
final class Records {
    private static final Read SKIP = new Read.Skip();

    private final Topics topics;

    Records(Topics topics) {
        this.topics = topics;
    }

    /** The meaning of one record. */
    sealed interface Read {
        /**
         * Hand {@code input} to the coordinator.
         *
         * @param member a cluster that spoke (its summary): its command topic must exist before it is sent a command
         */
        record Deliver(Input input, Optional<String> member) implements Read {}

        /** Refuse it: counted, logged once with its offset and {@code reason}, skipped. */
        record Poison(String reason) implements Read {}

        /** Nothing to act on: a cluster summary's tombstone, a topic that is not Cartograph's. */
        record Skip() implements Read {}
    }

    /** What the record {@code key}/{@code value} (either may be null) on {@code topic} means. */
    Read read(String topic, String key, byte[] value) {
        if (topic.equals(topics.placements())) {
            return placement(key, value);
        }
        Optional<Owned> owner = topics.owner(topic);
        if (owner.isEmpty()) {
            return SKIP;
        }
        String cluster = owner.get().cluster();
        return switch (owner.get().topic()) {
            case CLUSTER -> cluster(topic, cluster, value);
            case WORKLOADS -> workload(topic, cluster, key, value);
            case EVENTS -> result(topic, cluster, value);
        };
    }

    private Read cluster(String topic, String cluster, byte[] value) {
        if (value == null) {
            return SKIP;
        }
        return decoded(
                Wire.decodeCluster(value),
                (ClusterSummary s) -> s.cluster().equals(cluster)
                        ? new Read.Deliver(new Input.Cluster(s), Optional.of(cluster))
                        : claims(topic, s.cluster()));
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
        return new Read.Deliver(input, Optional.empty());
    }

    private static <T> Read decoded(Decoded<T> decoded, Function<T, Read> ok) {
        if (decoded instanceof Decoded.Ok<T> o) {
            return ok.apply(o.value());
        }
        return new Read.Poison(((Decoded.Failed<T>) decoded).reason());
    }
}
