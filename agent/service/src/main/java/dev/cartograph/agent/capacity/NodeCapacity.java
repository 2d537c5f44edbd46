package dev.cartograph.agent.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.resources.PodRequests;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.scheduling.Taint;
import dev.cartograph.protocol.NodeState;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a cluster's Node and Pod objects into node capacity: allocatable from the node status,
 * allocated = the effective requests (the interpreter's rule) of every non-terminal pod bound to
 * the node, plus one pod slot each. Pure and thread-safe.
 */
public final class NodeCapacity {
    private NodeCapacity() {}

    public static List<NodeState> of(List<JsonNode> nodes, List<JsonNode> pods) {
        Map<String, ResourceList> allocated = new HashMap<>();
        for (JsonNode pod : pods) {
            String node = pod.path("spec").path("nodeName").asText("");
            if (node.isEmpty() || terminal(pod)) {
                continue;
            }
            ResourceList request = PodRequests.of(pod.path("spec")).request().plus(ONE_POD);
            allocated.merge(node, request, ResourceList::plus);
        }
        List<NodeState> out = new ArrayList<>();
        for (JsonNode node : nodes) {
            String name = node.path("metadata").path("name").asText();
            Map<String, String> labels = new LinkedHashMap<>();
            node.path("metadata")
                    .path("labels")
                    .fields()
                    .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            List<Taint> taints = new ArrayList<>();
            node.path("spec").path("taints").forEach(t -> taints.add(Taint.of(t)));
            out.add(new NodeState(
                    name,
                    labels,
                    taints,
                    ready(node),
                    !node.path("spec").path("unschedulable").asBoolean(false),
                    PodRequests.parseList(
                            node.path("status").path("allocatable"),
                            "node " + name + " allocatable",
                            new ArrayList<>()),
                    allocated.getOrDefault(name, ResourceList.EMPTY)));
        }
        return out;
    }

    private static final ResourceList ONE_POD =
            new ResourceList(new TreeMap<>(Map.of(ResourceList.PODS, BigDecimal.ONE)));

    /** Succeeded and Failed pods hold nothing (the scheduler does not count them). */
    public static boolean terminal(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return phase.equals("Succeeded") || phase.equals("Failed");
    }

    static boolean ready(JsonNode node) {
        for (JsonNode c : node.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return false;
    }
}
