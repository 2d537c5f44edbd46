package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.resources.Ceilings;
import dev.cartograph.protocol.ClusterRecord.Gone;
import dev.cartograph.protocol.ClusterRecord.Header;
import dev.cartograph.protocol.ClusterRecord.Key;
import dev.cartograph.protocol.ClusterRecord.Kind;
import dev.cartograph.protocol.ClusterRecord.Node;
import dev.cartograph.protocol.ClusterRecord.Placed;
import dev.cartograph.protocol.ClusterRecord.Stamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of a cluster topic ({@link ClusterRecord}): {@code cluster} (the header), {@code cluster.node}
 * (one node, its shape inline) and {@code cluster.placement}; a node or placement that is gone is a tombstone. A field
 * added later is written only when it says something, and read as "nothing" when absent, so readers and writers of
 * either side of it understand each other (the header's {@code unwatched}).
 * Decoding refuses amounts no node or pod could hold ({@link Ceilings}), a record whose name is not its key's,
 * and the whole-cluster record older agents wrote (nodes inline in the header). Thread-safe.
 */
final class ClusterRecordCodec {
    /** The per-node label that would make every node's shape unique; written only when it is not the node's name. */
    static final String HOSTNAME = "kubernetes.io/hostname";
    /** The most unwatched kinds a header may list (a catalog has a few dozen). */
    static final int MAX_UNWATCHED = 1000;

    private ClusterRecordCodec() {}

    /** The record's value; null for a tombstone. */
    static byte[] encode(ClusterRecord r) {
        if (r instanceof Header h) {
            return Envelope.bytes(header(h));
        } else if (r instanceof Node n) {
            return Envelope.bytes(node(n));
        } else if (r instanceof Placed p) {
            return Envelope.bytes(placed(p));
        }
        return null; // Gone: a tombstone
    }

    static Decoded<ClusterRecord> decode(String kafkaKey, byte[] value) {
        return decode(kafkaKey, value, null);
    }

    /**
     * Decodes, sharing node parts with the nodes decoded before through {@code parts} (if not null): a node
     * record as this build writes it is then read in one pass ({@link NodeRecordReader}); any other, here, which
     * says what is wrong.
     */
    static Decoded<ClusterRecord> decode(String kafkaKey, byte[] value, NodeParts parts) {
        var key = Key.parse(kafkaKey);
        if (key.isEmpty()) {
            return new Decoded.Failed<>(
                    "key '" + kafkaKey + "' is neither the cluster's name nor node/NAME nor placement/ID");
        }
        Key k = key.get();
        if (value == null) {
            return k.kind() == Kind.HEADER
                    ? new Decoded.Failed<>("a tombstone under the cluster's own key (a header is never deleted)")
                    : new Decoded.Ok<>(new Gone(k));
        }
        return switch (k.kind()) {
            case HEADER -> Envelope.decode(value, "cluster", ClusterRecordCodec::header);
            case NODE ->
                NodeRecordReader.read(value, k, parts)
                        .<Decoded<ClusterRecord>>map(Decoded.Ok::new)
                        .orElseGet(() -> Envelope.decode(value, "cluster.node", o -> node(o, k)));
            case PLACEMENT -> Envelope.decode(value, "cluster.placement", o -> placed(o, k));
        };
    }

    // ---- header

    private static ObjectNode header(Header h) {
        ObjectNode o = Envelope.header("cluster").put("cluster", h.cluster());
        Fields.strings(o, "labels", h.labels());
        o.put("agentVersion", h.agentVersion());
        stamp(o, h.stamp());
        o.put("sequence", h.sequence())
                .put("heartbeat", h.heartbeat().toString())
                .put("nodes", h.nodes())
                .put("placements", h.placements());
        if (!h.unwatched().isEmpty()) { // absent when empty: what readers before it read, and what they write
            ArrayNode list = o.putArray("unwatched");
            h.unwatched()
                    .forEach(u -> list.addObject()
                            .put("apiVersion", u.apiVersion())
                            .put("kind", u.kind())
                            .put("reason", u.reason()));
        }
        return o;
    }

    /** The unwatched kinds of a header; none when the field is absent (agents before it did not write it). */
    private static List<UnwatchedKind> unwatched(JsonNode o) {
        JsonNode list = o.path("unwatched");
        if (list.isMissingNode() || list.isNull()) {
            return List.of();
        }
        if (!list.isArray() || list.size() > MAX_UNWATCHED) {
            throw new Fields.Bad("field 'unwatched' is not a list of at most " + MAX_UNWATCHED + " kinds");
        }
        List<UnwatchedKind> out = new ArrayList<>();
        for (JsonNode u : list) {
            out.add(new UnwatchedKind(
                    Fields.text(u, "apiVersion"), Fields.text(u, "kind"), Fields.textOr(u, "reason", "")));
        }
        return out;
    }

    private static ClusterRecord header(JsonNode o) {
        if (o.path("nodes").isArray()) {
            throw new Fields.Bad(
                    "a whole-cluster summary (nodes inline), as agents before schema 1 per-node"
                            + " records wrote; this broker reads a header plus one record per node: upgrade this cluster's agent");
        }
        return new Header(
                Fields.text(o, "cluster"),
                Fields.strings(o, "labels"),
                Fields.textOr(o, "agentVersion", ""),
                stamp(o),
                Fields.number(o, "sequence"),
                Fields.instant(o, "heartbeat"),
                count(o, "nodes"),
                count(o, "placements"),
                unwatched(o));
    }

    private static int count(JsonNode o, String field) {
        long n = Fields.number(o, field);
        if (n < 0 || n > Ceilings.MAX_REPLICAS) {
            throw new Fields.Bad(
                    "field '" + field + "' = " + n + " is out of range (0 to " + Ceilings.MAX_REPLICAS + ")");
        }
        return (int) n;
    }

    private static void stamp(ObjectNode o, Stamp s) {
        o.put("incarnation", s.incarnation());
        if (s.resync() > 0) {
            o.put("resync", s.resync());
        }
    }

    private static Stamp stamp(JsonNode o) {
        long resync = o.has("resync") ? Fields.number(o, "resync") : 0;
        if (resync < 0) {
            throw new Fields.Bad("field 'resync' = " + resync + " is negative");
        }
        return new Stamp(Fields.text(o, "incarnation"), resync);
    }

    // ---- node: only what differs from the defaults (ready, schedulable, hostname = name, nothing allocated)

    private static ObjectNode node(Node r) {
        NodeState n = r.node();
        ObjectNode o = Envelope.header("cluster.node").put("cluster", r.cluster());
        stamp(o, r.stamp());
        o.put("name", n.name());
        Map<String, String> labels = new LinkedHashMap<>(n.labels());
        String hostname = labels.remove(HOSTNAME);
        Fields.strings(o, "labels", labels);
        if (hostname != null && !hostname.equals(n.name())) {
            o.put("hostname", hostname);
        }
        Fields.taints(o, "taints", n.taints());
        Fields.resources(o, "allocatable", n.allocatable());
        if (!n.ready()) {
            o.put("ready", false);
        }
        if (!n.schedulable()) {
            o.put("schedulable", false);
        }
        if (!n.allocated().isEmpty()) {
            Fields.resources(o, "allocated", n.allocated());
        }
        return o;
    }

    private static ClusterRecord node(JsonNode o, Key key) {
        String name = Fields.text(o, "name");
        if (!name.equals(key.name())) {
            throw new Fields.Bad("node '" + name + "' under key '" + key.kafkaKey() + "'");
        }
        Map<String, String> labels = new LinkedHashMap<>(Fields.strings(o, "labels"));
        labels.put(HOSTNAME, Fields.textOr(o, "hostname", name));
        String where = "node '" + name + "'";
        return new Node(
                Fields.text(o, "cluster"),
                stamp(o),
                new NodeState(
                        name,
                        labels,
                        Fields.taints(o),
                        o.path("ready").asBoolean(true),
                        o.path("schedulable").asBoolean(true),
                        Fields.boundedResources(o, "allocatable", where),
                        Fields.boundedResources(o, "allocated", where)));
    }

    // ---- placement

    private static ObjectNode placed(Placed r) {
        PlacementReport p = r.placement();
        ObjectNode o = Envelope.header("cluster.placement").put("cluster", r.cluster());
        stamp(o, r.stamp());
        o.put("id", p.placementId()).put("epoch", p.epoch()).put("pendingPods", p.pendingPods());
        Fields.resources(o, "pendingDemand", p.pendingDemand());
        return o;
    }

    private static ClusterRecord placed(JsonNode o, Key key) {
        String id = Fields.text(o, "id");
        if (!id.equals(key.name())) {
            throw new Fields.Bad("placement '" + id + "' under key '" + key.kafkaKey() + "'");
        }
        long pending = o.path("pendingPods").asLong(0);
        if (pending < 0 || pending > Ceilings.MAX_REPLICAS) {
            throw new Fields.Bad("placement '" + id + "' pendingPods = " + pending + " is out of range");
        }
        return new Placed(
                Fields.text(o, "cluster"),
                stamp(o),
                new PlacementReport(
                        id, Fields.number(o, "epoch"), (int) pending, Fields.resources(o, "pendingDemand")));
    }
}
