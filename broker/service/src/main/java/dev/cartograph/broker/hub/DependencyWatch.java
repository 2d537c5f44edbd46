package dev.cartograph.broker.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.coordinate.HubDependencies;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.dependency.Dependency;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub's ConfigMaps, Secrets, ServiceAccounts and PersistentVolumeClaims in every namespace, from informers'
 * caches; each add, change or delete is posted to the coordinator as {@link Input.DependencyChanged} (names only —
 * a Secret's data stays in the cache and goes only into the apply of the cluster that runs a gang needing it). A kind
 * the hub does not let the broker watch is logged and tried again at the next start. Thread-safe.
 */
final class DependencyWatch implements HubDependencies {
    private static final Logger LOG = LoggerFactory.getLogger(DependencyWatch.class);

    private final KubernetesClient client;
    private final Consumer<Input> sink;
    private final Map<Dependency.Kind, SharedIndexInformer<? extends HasMetadata>> informers =
            new EnumMap<>(Dependency.Kind.class);

    DependencyWatch(KubernetesClient client, Consumer<Input> sink) {
        this.client = client;
        this.sink = sink;
    }

    /** Starts the informers not yet running. */
    synchronized void start() {
        for (Dependency.Kind kind : Dependency.Kind.values()) {
            if (informers.containsKey(kind)) {
                continue;
            }
            try {
                informers.put(kind, inform(kind));
            } catch (RuntimeException e) {
                LOG.warn(
                        "cannot watch {} on the hub ({}); gangs that need one wait until it can be watched",
                        kind.plural(),
                        e.getMessage());
            }
        }
    }

    private SharedIndexInformer<? extends HasMetadata> inform(Dependency.Kind kind) {
        return switch (kind) {
            case CONFIG_MAP -> client.configMaps().inAnyNamespace().inform(handler(kind), 0);
            case SECRET -> client.secrets().inAnyNamespace().inform(handler(kind), 0);
            case SERVICE_ACCOUNT -> client.serviceAccounts().inAnyNamespace().inform(handler(kind), 0);
            case PERSISTENT_VOLUME_CLAIM ->
                client.persistentVolumeClaims().inAnyNamespace().inform(handler(kind), 0);
        };
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(Dependency.Kind kind) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T o) {
                changed(kind, o);
            }

            @Override
            public void onUpdate(T old, T o) {
                changed(kind, o);
            }

            @Override
            public void onDelete(T o, boolean unknown) {
                changed(kind, o);
            }
        };
    }

    private void changed(Dependency.Kind kind, HasMetadata o) {
        sink.accept(new Input.DependencyChanged(
                kind, o.getMetadata().getNamespace(), o.getMetadata().getName()));
    }

    @Override
    public boolean watched() {
        return true;
    }

    @Override
    public boolean has(Dependency.Kind kind, String namespace, String name) {
        return cached(kind, namespace, name) != null;
    }

    private HasMetadata cached(Dependency.Kind kind, String namespace, String name) {
        SharedIndexInformer<? extends HasMetadata> informer;
        synchronized (this) {
            informer = informers.get(kind);
        }
        return informer == null ? null : informer.getStore().getByKey(namespace + "/" + name);
    }

    @Override
    public Optional<JsonNode> find(Dependency.Kind kind, String namespace, String name) {
        HasMetadata o = cached(kind, namespace, name);
        if (o == null) {
            return Optional.empty();
        }
        JsonNode json = Documents.json().valueToTree(o);
        if (json.isObject() && !json.has("apiVersion")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) json).put("apiVersion", "v1");
        }
        if (json.isObject() && !json.has("kind")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) json).put("kind", kind.kind());
        }
        return Optional.of(json);
    }

    synchronized void close() {
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
    }
}
