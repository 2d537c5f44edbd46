package dev.cartograph.simulator.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.dependency.Dependencies;
import dev.cartograph.interpreter.dependency.Dependency;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Whether the kubelet can start a bound pod's containers, as it decides it: first it mounts the volumes (a ConfigMap,
 * Secret or PersistentVolumeClaim volume, or a projected source, that does not exist keeps every container in
 * {@value #CONTAINER_CREATING}), then it builds each container's environment ({@code envFrom} and
 * {@code env[].valueFrom} naming a missing ConfigMap or Secret is {@value #CREATE_CONTAINER_CONFIG_ERROR},
 * {@code configmap "x" not found}). References marked {@code optional: true} never wait. The objects a pod needs come
 * from the interpreter's {@link Dependencies#ofPodSpec}; the ServiceAccount (checked by the API server's admission
 * when the pod is created, not by the kubelet) and {@code imagePullSecrets} (the kubelet pulls without a missing one)
 * are not waited for. Pure and thread-safe.
 */
public final class Kubelet {
    public static final String CONTAINER_CREATING = "ContainerCreating";
    public static final String CREATE_CONTAINER_CONFIG_ERROR = "CreateContainerConfigError";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] CONTAINER_LISTS = {"initContainers", "containers"};

    private Kubelet() {}

    /**
     * @param spec      the pod's {@code spec}
     * @param namespace the pod's namespace (the objects it needs are in it)
     * @param present   whether a dependency exists in the pod's namespace now
     */
    public static Startup startup(JsonNode spec, String namespace, Predicate<Dependency> present) {
        for (JsonNode volume : spec.path("volumes")) {
            ObjectNode only = F.objectNode();
            only.putArray("volumes").add(volume);
            Optional<Dependency> missing = firstMissing(only, present);
            if (missing.isPresent()) {
                return new Startup.Wait(
                        CONTAINER_CREATING, mountFailure(volume.path("name").asText(""), namespace, missing.get()));
            }
        }
        for (String list : CONTAINER_LISTS) {
            for (JsonNode container : spec.path(list)) {
                ObjectNode only = F.objectNode();
                only.putArray("containers").add(container);
                Optional<Dependency> missing = firstMissing(only, present);
                if (missing.isPresent()) {
                    return new Startup.Wait(CREATE_CONTAINER_CONFIG_ERROR, notFound(missing.get()));
                }
            }
        }
        return new Startup.Start();
    }

    private static Optional<Dependency> firstMissing(JsonNode partialSpec, Predicate<Dependency> present) {
        List<Dependency> needed = Dependencies.ofPodSpec(partialSpec, "spec");
        return needed.stream()
                .filter(Kubelet::waitedFor)
                .filter(d -> !present.test(d))
                .findFirst();
    }

    private static boolean waitedFor(Dependency d) {
        return !d.optional()
                && (d.kind() == Dependency.Kind.CONFIG_MAP
                        || d.kind() == Dependency.Kind.SECRET
                        || d.kind() == Dependency.Kind.PERSISTENT_VOLUME_CLAIM);
    }

    /** The kubelet's words for an object it cannot get: {@code configmap "x" not found}. */
    static String notFound(Dependency d) {
        return d.kind().kind().toLowerCase(Locale.ROOT) + " \"" + d.name() + "\" not found";
    }

    private static String mountFailure(String volume, String namespace, Dependency d) {
        if (d.kind() == Dependency.Kind.PERSISTENT_VOLUME_CLAIM) {
            return "Unable to attach or mount volumes: unmounted volumes=[" + volume + "]: error processing PVC "
                    + namespace + "/" + d.name() + ": failed to fetch PVC from API server: persistentvolumeclaims \""
                    + d.name() + "\" not found";
        }
        return "MountVolume.SetUp failed for volume \"" + volume + "\" : " + notFound(d);
    }
}
