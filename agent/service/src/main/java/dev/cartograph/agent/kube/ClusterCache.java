package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Informers on Nodes, Pods and every catalog kind the cluster serves (found by discovery at start
 * and again whenever a CRD appears). Handlers only signal what changed ({@code onChange}); readers
 * take snapshots of the caches as JSON trees. The caches hold what the agent's readers use, as JSON
 * bytes ({@link CompactStore}; what is kept and who reads it: {@link Kept}). Thread-safe.
 */
public final class ClusterCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);

    /** What changed: {@code nodes} and {@code pods}, or a workload key {@code apiVersion/kind/namespace/name}. */
    public sealed interface Change {
        record Capacity() implements Change {}

        record Workload(GroupVersionKind kind, String namespace, String name) implements Change {}
    }

    /** core/v1 Pod: watched once, for capacity and (when the definitions name it) as a workload kind. */
    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");

    private final KubernetesClient client;
    private volatile Definitions definitions;
    private final Consumer<Change> onChange;
    private final Map<GroupVersionKind, Watched> workloads = new ConcurrentHashMap<>();
    private final CompactStore<Node> nodeStore = new CompactStore<>(Node.class, Kept::node);
    private volatile SharedIndexInformer<Node> nodes;
    private volatile Watched pods;
    private volatile SharedIndexInformer<CustomResourceDefinition> crds;

    /** An informer and the store it fills. */
    private record Watched(
            SharedIndexInformer<GenericKubernetesResource> informer, CompactStore<GenericKubernetesResource> store) {}

    public ClusterCache(KubernetesClient client, Definitions definitions, Consumer<Change> onChange) {
        this.client = client;
        this.definitions = definitions;
        this.onChange = onChange;
    }

    /**
     * Starts the informers and waits for their first lists. Their stores keep what {@link Kept} says the agent's
     * readers use (the list of readers and their fields is there); one pod informer serves capacity and, when
     * the definitions name core/v1 Pod, Pods as workloads, so no pod is held twice.
     */
    public void start() {
        Change capacity = new Change.Capacity();
        nodes = client.nodes()
                .runnableInformer(0)
                .itemStore(nodeStore)
                .removeNamespaceIndex()
                .addEventHandler(handler(o -> onChange.accept(capacity)))
                .run();
        pods = watch(client.genericKubernetesResources(context(POD, "pods")).inAnyNamespace(), o -> {
            onChange.accept(capacity);
            if (workloads.containsKey(POD)) {
                onChange.accept(workloadChange(POD, o));
            }
        });
        discover();
        try {
            crds = client.apiextensions().v1().customResourceDefinitions().inform(handler(o -> discover()), 0);
        } catch (KubernetesClientException e) {
            LOG.warn("cannot watch CRDs ({}); catalog kinds added later are found only on restart", e.getMessage());
        }
    }

    private static Watched watch(
            Informable<GenericKubernetesResource> what, Consumer<GenericKubernetesResource> signal) {
        CompactStore<GenericKubernetesResource> store =
                new CompactStore<>(GenericKubernetesResource.class, Kept::workload);
        SharedIndexInformer<GenericKubernetesResource> informer = what.runnableInformer(0)
                .itemStore(store)
                .removeNamespaceIndex()
                .addEventHandler(handler(signal))
                .run();
        return new Watched(informer, store);
    }

    /**
     * Per informer, whether it has its first list: {@code nodes}, {@code pods}, {@code customresourcedefinitions}, and
     * each workload kind watched by its qualified name (the pod informer serves Pods as workloads too). Thread-safe.
     */
    public Map<String, Boolean> synced() {
        Map<String, Boolean> out = new java.util.TreeMap<>();
        if (nodes != null) {
            out.put("nodes", nodes.hasSynced());
        }
        if (pods != null) {
            out.put("pods", pods.informer().hasSynced());
        }
        if (crds != null) {
            out.put("customresourcedefinitions", crds.hasSynced());
        }
        workloads.forEach((kind, w) -> {
            if (!kind.equals(POD)) {
                out.put(kind.qualified(), w.informer().hasSynced());
            }
        });
        return out;
    }

    /** New definitions (Karta objects changed): kinds they add are watched from now on. */
    public void definitions(Definitions changed) {
        this.definitions = changed;
        discover();
    }

    /** Starts informers for catalog kinds that are served and not yet watched. */
    public synchronized void discover() {
        for (WorkloadDefinition d : definitions.all()) {
            GroupVersionKind kind = d.kind();
            if (workloads.containsKey(kind)) {
                continue;
            }
            served(kind).ifPresent(plural -> {
                if (kind.equals(POD) && pods != null) {
                    // the capacity informer's pods: announce each as a new informer's first list would
                    workloads.put(POD, pods);
                    pods.store().keySet().forEach(key -> onChange.accept(workloadChange(POD, key)));
                    LOG.info("watching {} ({}, with the capacity informer)", kind.qualified(), plural);
                    return;
                }
                try {
                    workloads.put(
                            kind,
                            watch(
                                    client.genericKubernetesResources(context(kind, plural))
                                            .inAnyNamespace(),
                                    o -> onChange.accept(workloadChange(kind, o))));
                    LOG.info("watching {} ({})", kind.qualified(), plural);
                } catch (KubernetesClientException e) {
                    LOG.warn("cannot watch {}: {}", kind.qualified(), e.getMessage());
                }
            });
        }
    }

    /** A namespaced kind as fabric8's generic client addresses it. */
    static ResourceDefinitionContext context(GroupVersionKind kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(kind.group())
                .withVersion(kind.version())
                .withKind(kind.kind())
                .withPlural(plural)
                .withNamespaced(true)
                .build();
    }

    private static Change.Workload workloadChange(GroupVersionKind kind, HasMetadata o) {
        return new Change.Workload(
                kind, o.getMetadata().getNamespace(), o.getMetadata().getName());
    }

    /** @param key the store's key, {@code namespace/name} */
    private static Change.Workload workloadChange(GroupVersionKind kind, String key) {
        int slash = key.indexOf('/');
        return new Change.Workload(kind, key.substring(0, slash), key.substring(slash + 1));
    }

    private Optional<String> served(GroupVersionKind kind) {
        try {
            APIResourceList list = client.getApiResources(kind.apiVersion());
            if (list != null && list.getResources() != null) {
                Optional<String> found = list.getResources().stream()
                        .filter(r ->
                                kind.kind().equals(r.getKind()) && !r.getName().contains("/"))
                        .map(APIResource::getName)
                        .findFirst();
                if (found.isPresent()) {
                    return found;
                }
            }
        } catch (KubernetesClientException e) {
            LOG.debug("discovery of {} failed: {}", kind.apiVersion(), e.getMessage());
        }
        return dev.cartograph.interpreter.definition.BuiltInKinds.of(kind)
                .map(dev.cartograph.interpreter.definition.BuiltInKinds.Kind::plural);
    }

    public List<JsonNode> nodes() {
        return nodeStore.trees();
    }

    public List<JsonNode> pods() {
        return pods == null ? List.of() : pods.store().trees();
    }

    /** Every cached object of every watched catalog kind. */
    public List<JsonNode> workloads() {
        List<JsonNode> out = new ArrayList<>();
        workloads.values().forEach(w -> out.addAll(w.store().trees()));
        return out;
    }

    public Optional<JsonNode> workload(GroupVersionKind kind, String namespace, String name) {
        Watched watched = workloads.get(kind);
        return watched == null ? Optional.empty() : watched.store().tree(namespace + "/" + name);
    }

    /** The watched version of a group's kind (a Delete names its copy by group and kind); empty when not watched. */
    public Optional<GroupVersionKind> watched(String group, String kind) {
        return workloads.keySet().stream()
                .filter(k -> k.group().equals(group) && k.kind().equals(kind))
                .findFirst();
    }

    /** Whether the kind is watched (served by this cluster). */
    public boolean watches(GroupVersionKind kind) {
        return workloads.containsKey(kind);
    }

    public Optional<String> plural(GroupVersionKind kind) {
        return workloads.containsKey(kind) ? served(kind) : Optional.empty();
    }

    static JsonNode tree(HasMetadata o) {
        return Documents.json().valueToTree(o);
    }

    private static <T extends HasMetadata> ResourceEventHandler<T> handler(Consumer<T> signal) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                signal.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                signal.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                signal.accept(obj);
            }
        };
    }

    @Override
    public void close() {
        workloads.values().stream()
                .filter(w -> w != pods)
                .forEach(w -> w.informer().close());
        if (nodes != null) {
            nodes.close();
        }
        if (pods != null) {
            pods.informer().close();
        }
        if (crds != null) {
            crds.close();
        }
    }
}
