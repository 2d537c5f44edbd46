package dev.cartograph.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What of a hub ConfigMap, Secret, ServiceAccount or PersistentVolumeClaim may be created on a member for the
 * workloads that need it: the hub object as {@link MemberManifest} makes it, and further, what only makes sense on
 * the hub removed. A ServiceAccount loses its {@code secrets} (the hub's token Secrets); a claim keeps what asks for
 * storage (access modes, size, storage class, volume mode, selector) and loses its binding to the hub's volume
 * ({@code volumeName}, the binding annotations) and its data source (a hub snapshot or claim): data does not move, the
 * member's provisioner makes a new, empty volume. A Secret of type {@code kubernetes.io/service-account-token} is
 * never copied (it is a credential for the hub). Pure and thread-safe.
 */
public final class DependencyManifest {
    /** The kinds a dependency may be, all {@code v1}. */
    public static final Set<String> KINDS = Set.of("ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim");

    private static final String TOKEN_TYPE = "kubernetes.io/service-account-token";
    private static final List<String> CLAIM_SPEC = List.of(
            "accessModes", "resources", "storageClassName", "volumeMode", "selector", "volumeAttributesClassName");
    private static final List<String> BINDING_PREFIXES =
            List.of("pv.kubernetes.io/", "volume.beta.kubernetes.io/", "volume.kubernetes.io/");

    private DependencyManifest() {}

    /** Why {@code object} cannot be copied to a member, if it cannot. */
    public static Optional<String> refusal(JsonNode object) {
        String kind = object.path("kind").asText();
        if (!"v1".equals(object.path("apiVersion").asText()) || !KINDS.contains(kind)) {
            return Optional.of(
                    describe(object) + " is not a v1 ConfigMap, Secret, ServiceAccount or PersistentVolumeClaim");
        }
        if ("Secret".equals(kind) && TOKEN_TYPE.equals(object.path("type").asText())) {
            return Optional.of(describe(object) + " is a service account token of the hub (type " + TOKEN_TYPE
                    + "); it is never copied to a member. Refer to a Secret of another type");
        }
        return Optional.empty();
    }

    /**
     * The member copy of a dependency: a new tree, {@code object} unchanged.
     *
     * @throws IllegalArgumentException when it is refused ({@link #refusal})
     */
    public static ObjectNode of(JsonNode object) {
        refusal(object).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        ObjectNode copy = MemberManifest.of(object, Set.of());
        String kind = copy.path("kind").asText();
        if (kind.equals("ServiceAccount")) {
            copy.remove("secrets");
        } else if (kind.equals("PersistentVolumeClaim")) {
            if (copy.get("spec") instanceof ObjectNode spec) {
                spec.retain(CLAIM_SPEC);
            }
            if (copy.path("metadata").get("annotations") instanceof ObjectNode annotations) {
                List<String> binding = new java.util.ArrayList<>();
                annotations.fieldNames().forEachRemaining(k -> {
                    if (BINDING_PREFIXES.stream().anyMatch(k::startsWith)) {
                        binding.add(k);
                    }
                });
                annotations.remove(binding);
            }
        }
        return copy;
    }

    /** {@code Kind namespace/name}: how a dependency (or any object) is named in logs and reasons, never its data. */
    public static String describe(JsonNode object) {
        return object.path("kind").asText() + " "
                + object.path("metadata").path("namespace").asText() + "/"
                + object.path("metadata").path("name").asText();
    }
}
