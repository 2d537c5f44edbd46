package dev.cartograph.local.fault;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the member clusters hold, read straight from their API servers (not from the broker or the agents):
 * the copies the agents created, each with the placement id it is labelled with, and which placements
 * have pods bound and not finished there. Thread-safe (stateless over thread-safe clients).
 */
final class MemberStores {
    static final String PLACEMENT_LABEL = "cartograph.dev/placement-id";

    /** One copy of a hub object on a member. */
    record Copy(String cluster, String placementId, String kind, String name) {}

    private final Clusters clusters;

    MemberStores(Clusters clusters) {
        this.clusters = clusters;
    }

    /** Every copy on every member, by placement id. */
    Map<String, List<Copy>> copies() {
        Map<String, List<Copy>> out = new HashMap<>();
        for (String cluster : clusters.names()) {
            for (Gang.Kind kind : Gang.Kind.values()) {
                for (GenericKubernetesResource o : copiesOf(cluster, kind)) {
                    String id = o.getMetadata().getLabels().get(PLACEMENT_LABEL);
                    out.computeIfAbsent(id, k -> new ArrayList<>())
                            .add(new Copy(
                                    cluster, id, kind.name(), o.getMetadata().getName()));
                }
            }
        }
        return out;
    }

    /**
     * Placement ids with at least one pod bound to a node and not finished on {@code cluster} (a pod belongs to
     * the copy that owns it: the simulator's controller owner reference).
     */
    Set<String> running(String cluster) {
        Map<String, String> placementOfCopy = new HashMap<>();
        for (Gang.Kind kind : Gang.Kind.values()) {
            for (GenericKubernetesResource o : copiesOf(cluster, kind)) {
                placementOfCopy.put(
                        o.getMetadata().getUid(), o.getMetadata().getLabels().get(PLACEMENT_LABEL));
            }
        }
        Set<String> out = new HashSet<>();
        for (Pod pod : clusters.member(cluster)
                .pods()
                .inNamespace(Clusters.NAMESPACE)
                .list()
                .getItems()) {
            boolean bound = pod.getSpec() != null
                    && pod.getSpec().getNodeName() != null
                    && !pod.getSpec().getNodeName().isEmpty();
            String phase = pod.getStatus() == null
                    ? ""
                    : String.valueOf(pod.getStatus().getPhase());
            boolean finished = "Succeeded".equals(phase)
                    || "Failed".equals(phase)
                    || pod.getMetadata().getDeletionTimestamp() != null;
            if (!bound || finished) {
                continue;
            }
            for (OwnerReference owner : pod.getMetadata().getOwnerReferences()) {
                String placement = placementOfCopy.get(owner.getUid());
                if (placement != null) {
                    out.add(placement);
                }
            }
        }
        return out;
    }

    private List<GenericKubernetesResource> copiesOf(String cluster, Gang.Kind kind) {
        return clusters
                .member(cluster)
                .genericKubernetesResources(kind.context)
                .inNamespace(Clusters.NAMESPACE)
                .list()
                .getItems()
                .stream()
                .filter(o -> o.getMetadata().getLabels() != null
                        && o.getMetadata().getLabels().containsKey(PLACEMENT_LABEL))
                .toList(); // listed whole: the CRUD mock's support for an exists-selector is not something to rely on
    }
}
