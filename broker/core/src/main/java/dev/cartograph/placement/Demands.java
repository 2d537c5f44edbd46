package dev.cartograph.placement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.WorkloadView;
import dev.cartograph.protocol.MetadataKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a workload asks of a cluster: for a gang, the pods of its minimum (they must start
 * together); otherwise every desired pod. And the cluster selector from the object's
 * {@link MetadataKeys#CLUSTER_SELECTOR_ANNOTATION} annotation ({@code key=value,key=value}). Pure.
 */
public final class Demands {
    private Demands() {}

    public static List<PodDemand> of(WorkloadView view) {
        boolean gang = view.gang().minMember() > 0;
        List<PodDemand> out = new ArrayList<>();
        for (ComponentView c : view.components().toList()) {
            for (InstanceView i : c.instances()) {
                if (!i.hasPods()) {
                    continue;
                }
                long count = gang ? i.replicas().min() : i.replicas().desired();
                out.add(new PodDemand(c.name(), i.id(), Math.toIntExact(count), i.perPod(), i.constraints()));
            }
        }
        return out;
    }

    /** The cluster selector an object asks for; empty when none. Malformed entries are ignored. */
    public static Map<String, String> clusterSelector(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        String text = object.path("metadata")
                .path("annotations")
                .path(MetadataKeys.CLUSTER_SELECTOR_ANNOTATION)
                .asText("");
        for (String part : text.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        return out;
    }
}
