package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The JSON encoding of every protocol record (docs/protocol.md): the one entry point; each record family
 * has its codec beside it. Each record carries {@code "schema"} (this build writes {@value #SCHEMA}) and
 * {@code "type"}; unknown fields are ignored, so newer writers stay readable. Decoding never throws: a
 * record that cannot be read comes back as {@link Decoded.Failed} with the reason. Thread-safe.
 *
 * <p>A cluster is written as records proportional to what changed ({@link ClusterRecord}): a header, one
 * record per node and per applied placement, a tombstone for one that is gone. {@link ClusterDeltas} makes
 * them from the agent's whole {@link ClusterSummary}; {@link ClusterAssembly} puts the summary together again.
 */
public final class Wire {
    public static final int SCHEMA = 1;

    private Wire() {}

    // ---- cluster topics: header, nodes, placements

    /** The value of {@code r} under {@code r.key().kafkaKey()}; null for a tombstone. */
    public static byte[] encode(ClusterRecord r) {
        return ClusterRecordCodec.encode(r);
    }

    /** The record with Kafka key {@code key} and {@code value} (null: a tombstone) on a cluster topic. */
    public static Decoded<ClusterRecord> decodeCluster(String key, byte[] value) {
        return ClusterRecordCodec.decode(key, value);
    }

    /**
     * As {@link #decodeCluster(String, byte[])}, sharing what nodes have in common with the nodes decoded before
     * through {@code parts} (a long-lived reader's memory, and its decoding time).
     */
    public static Decoded<ClusterRecord> decodeCluster(String key, byte[] value, NodeParts parts) {
        return ClusterRecordCodec.decode(key, value, parts);
    }

    // ---- fleet snapshots (the expanded form: what carto plan reads)

    public static byte[] encodeFleet(List<ClusterState> clusters) {
        return Envelope.bytes(FleetCodec.tree(clusters));
    }

    /** A fleet snapshot as a JSON tree (a copy the caller may add to, as the broker's REST API does). */
    public static ObjectNode fleet(List<ClusterState> clusters) {
        return FleetCodec.tree(clusters);
    }

    public static Decoded<List<ClusterState>> decodeFleet(byte[] value) {
        return FleetCodec.decode(value);
    }

    // ---- workload summaries

    public static byte[] encode(WorkloadSummary w) {
        return WorkloadSummaryCodec.encode(w);
    }

    public static Decoded<WorkloadSummary> decodeWorkload(byte[] value) {
        return WorkloadSummaryCodec.decode(value);
    }

    // ---- commands and their results

    public static byte[] encode(Command c) {
        return CommandCodec.encode(c);
    }

    public static Decoded<Command> decodeCommand(byte[] value) {
        return CommandCodec.decode(value);
    }

    public static byte[] encode(CommandResult r) {
        return CommandCodec.encode(r);
    }

    public static Decoded<CommandResult> decodeResult(byte[] value) {
        return CommandCodec.decodeResult(value);
    }

    // ---- placements (the broker's durable decisions)

    public static byte[] encode(PlacementRecord p) {
        return PlacementCodec.encode(p);
    }

    public static Decoded<PlacementRecord> decodePlacement(byte[] value) {
        return PlacementCodec.decode(value);
    }
}
