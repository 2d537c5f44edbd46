package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet snapshot: every cluster with every node written out in full (the expanded form that
 * {@code carto plan} reads and the broker's REST API serves). It has no schema or type header. Thread-safe.
 */
final class FleetCodec {
    private FleetCodec() {}

    static ObjectNode tree(List<ClusterState> clusters) {
        ObjectNode o = Envelope.JSON.createObjectNode();
        ArrayNode list = o.putArray("clusters");
        for (ClusterState c : clusters) {
            ObjectNode co = list.addObject().put("name", c.name());
            Fields.strings(co, "labels", c.labels());
            co.put("ready", c.ready());
            ArrayNode nodes = co.putArray("nodes");
            for (NodeState n : c.nodes()) {
                ObjectNode no = nodes.addObject().put("name", n.name());
                Fields.strings(no, "labels", n.labels());
                Fields.taints(no, "taints", n.taints());
                no.put("ready", n.ready()).put("schedulable", n.schedulable());
                Fields.resources(no, "allocatable", n.allocatable());
                Fields.resources(no, "allocated", n.allocated());
            }
        }
        return o;
    }

    static Decoded<List<ClusterState>> decode(byte[] value) {
        try {
            JsonNode o = Envelope.JSON.readTree(value);
            if (!o.path("clusters").isArray()) {
                return new Decoded.Failed<>("a fleet snapshot needs a 'clusters' list");
            }
            List<ClusterState> out = new ArrayList<>();
            for (JsonNode c : o.path("clusters")) {
                List<NodeState> nodes = new ArrayList<>();
                for (JsonNode n : c.path("nodes")) {
                    nodes.add(new NodeState(
                            Fields.text(n, "name"),
                            Fields.strings(n, "labels"),
                            Fields.taints(n),
                            n.path("ready").asBoolean(true),
                            n.path("schedulable").asBoolean(true),
                            Fields.resources(n, "allocatable"),
                            Fields.resources(n, "allocated")));
                }
                out.add(new ClusterState(
                        Fields.text(c, "name"),
                        Fields.strings(c, "labels"),
                        c.path("ready").asBoolean(true),
                        nodes));
            }
            return new Decoded.Ok<>(out);
        } catch (IOException | Fields.Bad | IllegalArgumentException | NullPointerException e) {
            return new Decoded.Failed<>(e.getMessage());
        }
    }
}
