package dev.cartograph.simulator.kube;

import dev.cartograph.interpreter.dependency.Dependency;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which ConfigMaps, Secrets and PersistentVolumeClaims exist, for one pass: each kind is listed once per namespace,
 * the first time a pod there needs one (pods that need nothing cost nothing). A list the server refuses counts as
 * everything present (a read error must not hold pods back; it is logged). One per pass; not thread-safe.
 */
final class Presence {
    private static final Logger LOG = LoggerFactory.getLogger(Presence.class);

    private final KubernetesClient client;
    private final Map<String, Optional<Set<String>>> names = new HashMap<>();

    Presence(KubernetesClient client) {
        this.client = client;
    }

    boolean has(String namespace, Dependency d) {
        return names.computeIfAbsent(namespace + "/" + d.kind().plural(), k -> list(namespace, d.kind()))
                .map(found -> found.contains(d.name()))
                .orElse(true);
    }

    private Optional<Set<String>> list(String namespace, Dependency.Kind kind) {
        try {
            KubernetesResourceList<? extends HasMetadata> list = switch (kind) {
                case CONFIG_MAP -> client.configMaps().inNamespace(namespace).list();
                case SECRET -> client.secrets().inNamespace(namespace).list();
                case PERSISTENT_VOLUME_CLAIM ->
                    client.persistentVolumeClaims().inNamespace(namespace).list();
                case SERVICE_ACCOUNT ->
                    client.serviceAccounts().inNamespace(namespace).list();
            };
            Set<String> found = new HashSet<>();
            List<? extends HasMetadata> items = list.getItems();
            items.forEach(o -> found.add(o.getMetadata().getName()));
            return Optional.of(found);
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "cannot list {} in {} this pass (pods needing them are not held back): {}",
                    kind.plural(),
                    namespace,
                    e.getMessage());
            return Optional.empty();
        }
    }
}
