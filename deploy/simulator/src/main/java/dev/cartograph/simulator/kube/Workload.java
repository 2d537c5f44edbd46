package dev.cartograph.simulator.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Optional;

/** A selected workload as listed this pass: its kind, the fabric8 object and its JSON. Immutable by convention (never mutated). */
record Workload(ServedKind kind, GenericKubernetesResource resource, JsonNode json) {
    String name() {
        return resource.getMetadata().getName();
    }

    String namespace() {
        return resource.getMetadata().getNamespace() == null
                ? ""
                : resource.getMetadata().getNamespace();
    }

    String uid() {
        return resource.getMetadata().getUid() == null
                ? ""
                : resource.getMetadata().getUid();
    }

    Optional<String> annotation(String key) {
        return Optional.ofNullable(resource.getMetadata().getAnnotations()).map(a -> a.get(key));
    }

    /** {@code Kind namespace/name}, as logs name it. */
    String describe() {
        return kind.kind().kind() + " " + namespace() + "/" + name();
    }

    /** Oldest first, then by namespace and name: the order in which workloads take capacity. */
    String order() {
        String created = resource.getMetadata().getCreationTimestamp() == null
                ? ""
                : resource.getMetadata().getCreationTimestamp();
        return created + "\u0000" + namespace() + "\u0000" + name();
    }
}
