package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the agent's informer caches keep of each object ({@link CompactStore}), decided by who reads them. Every
 * reader of the cached objects, and the fields it uses:
 *
 * <ul>
 *   <li><b>Nodes</b> are read only by {@code capacity.NodeCapacity.of}: {@code metadata.name},
 *       {@code metadata.labels}, {@code spec.taints[]} (key, value, effect), {@code spec.unschedulable},
 *       {@code status.allocatable}, {@code status.conditions[]} (type and status; Ready is the one used). The
 *       informer itself needs {@code metadata.resourceVersion}. Only these are kept ({@link #node}): the rest of a
 *       real node (its image list, addresses, nodeInfo, capacity, annotations, condition messages) goes.
 *   <li><b>Pods</b> are read for capacity by {@code NodeCapacity.of} and {@code report.Reporter#cluster}
 *       ({@code spec.nodeName}, {@code status.phase}, and through {@code PodRequests.of(spec)}
 *       {@code spec.containers[].resources}, {@code spec.initContainers[].resources} and {@code .restartPolicy},
 *       {@code spec.overhead}), and by {@code report.Owners} ({@code metadata.uid},
 *       {@code metadata.ownerReferences[]} uid and controller). A Pod is also a catalog workload kind, so the
 *       same cache answers for Pods as workloads, below, and keeps what a workload keeps. Terminal pods hold no
 *       resources but are still workloads (a completed Pod's summary says so), so they are kept too.
 *   <li><b>Workloads</b> (every catalog kind served, Pods included) are read by the interpreter
 *       ({@code Reporter#workload}, {@code Reporter#cluster}): the whole object as its definition reads it — a
 *       cluster's own Karta objects may name any field, and a workload summary carries {@code status} whole — and
 *       by the apply side: {@code apply.Ownership} ({@code metadata.labels}, {@code metadata.annotations},
 *       {@code metadata.ownerReferences[].controller}) for {@code CommandHandler}, {@code fence.Fencer},
 *       {@code fence.StartedMarks} and {@code Publishing}; {@code apply.ApplyPolicy#decide} ({@code kind}, {@code metadata.name},
 *       {@code metadata.namespace}); {@code KubeApplier} deleting an existing copy ({@code apiVersion},
 *       {@code kind}, {@code metadata.namespace}, {@code metadata.name}); {@code Reporter#key}; and
 *       {@code report.Owners} (as for pods). So a workload keeps everything but {@code metadata.managedFields}
 *       ({@link #workload}), the API server's record of which client set which field, which nothing here reads
 *       (client-go informers commonly drop it too).
 * </ul>
 *
 * {@code KeptTest}, {@code CompactStoreTest} and {@code ClusterCacheIT} fail if a field one of these readers uses is
 * dropped.
 * Pure; thread-safe.
 */
final class Kept {
    private Kept() {}

    /** A node's capacity fields: what {@code NodeCapacity} reads, and the informer's resourceVersion. */
    static ObjectNode node(ObjectNode node) {
        ObjectNode out = node.objectNode();
        copy(node, out, "apiVersion", "kind");
        copy(node.path("metadata"), out.putObject("metadata"), "name", "resourceVersion", "labels");
        if (node.path("spec").isObject()) {
            copy(node.path("spec"), out.putObject("spec"), "taints", "unschedulable");
        }
        JsonNode status = node.path("status");
        if (status.isObject()) {
            ObjectNode kept = out.putObject("status");
            copy(status, kept, "allocatable");
            if (status.path("conditions").isArray()) {
                ArrayNode conditions = kept.putArray("conditions");
                status.path("conditions").forEach(c -> copy(c, conditions.addObject(), "type", "status"));
            }
        }
        return out;
    }

    /** A workload (and a pod): everything but {@code metadata.managedFields}. */
    static ObjectNode workload(ObjectNode object) {
        if (object.path("metadata") instanceof ObjectNode metadata) {
            metadata.remove("managedFields");
        }
        return object;
    }

    private static void copy(JsonNode from, ObjectNode to, String... fields) {
        for (String field : fields) {
            JsonNode value = from.get(field);
            if (value != null) {
                to.set(field, value);
            }
        }
    }
}
