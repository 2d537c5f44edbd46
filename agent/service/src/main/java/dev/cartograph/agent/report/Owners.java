package dev.cartograph.agent.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which pods belong to which workload object, by owner references: a pod's controller, its controller's
 * controller, and so on up to six hops (a Job's pods, a Deployment's ReplicaSet's pods). A snapshot over the
 * objects it was built from; immutable, thread-safe.
 */
public final class Owners {
    private static final int MAX_HOPS = 6;

    private final List<JsonNode> pods;
    /** uid → controlling owner uid. */
    private final Map<String, String> ownerOf;

    private Owners(List<JsonNode> pods, Map<String, String> ownerOf) {
        this.pods = List.copyOf(pods);
        this.ownerOf = Map.copyOf(ownerOf);
    }

    /**
     * @param workloads every cached workload object (Jobs, ReplicaSets… are catalog kinds, so the chain from
     *                  a pod up to what the agent created runs through them)
     */
    public static Owners of(List<JsonNode> workloads, List<JsonNode> pods) {
        Map<String, String> ownerOf = new HashMap<>();
        for (List<JsonNode> list : List.of(workloads, pods)) {
            for (JsonNode o : list) {
                JsonNode refs = o.path("metadata").path("ownerReferences");
                for (JsonNode ref : refs) {
                    // the controller, or the only owner when none is marked controller
                    if (ref.path("controller").asBoolean(false) || refs.size() == 1) {
                        ownerOf.put(
                                o.path("metadata").path("uid").asText(),
                                ref.path("uid").asText());
                    }
                }
            }
        }
        return new Owners(pods, ownerOf);
    }

    /** The pods {@code object} owns, directly or through the objects between. */
    public List<JsonNode> podsOf(JsonNode object) {
        String uid = object.path("metadata").path("uid").asText();
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode pod : pods) {
            String current = pod.path("metadata").path("uid").asText();
            for (int hops = 0; hops < MAX_HOPS && current != null; hops++) {
                current = ownerOf.get(current);
                if (uid.equals(current)) {
                    out.add(pod);
                    break;
                }
            }
        }
        return out;
    }
}
