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
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
 * take snapshots of the caches as JSON trees. Thread-safe.
 */
public final class ClusterCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);

    /** What changed: {@code nodes} and {@code pods}, or a workload key {@code apiVersion/kind/namespace/name}. */
    public sealed interface Change {
        record Capacity() implements Change {}

        record Workload(GroupVersionKind kind, String namespace, String name) implements Change {}
    }

    private final KubernetesClient client;
    private volatile Definitions definitions;
    private final Consumer<Change> onChange;
    private final Map<GroupVersionKind, SharedIndexInformer<GenericKubernetesResource>> workloads =
            new ConcurrentHashMap<>();
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<CustomResourceDefinition> crds;

    public ClusterCache(KubernetesClient client, Definitions definitions, Consumer<Change> onChange) {
        this.client = client;
        this.definitions = definitions;
        this.onChange = onChange;
    }

    public void start() {
        Change capacity = new Change.Capacity();
        nodes = client.nodes().inform(handler(o -> onChange.accept(capacity)), 0);
        pods = client.pods().inAnyNamespace().inform(handler(o -> onChange.accept(capacity)), 0);
        discover();
        try {
            crds = client.apiextensions().v1().customResourceDefinitions().inform(handler(o -> discover()), 0);
        } catch (KubernetesClientException e) {
            LOG.warn("cannot watch CRDs ({}); catalog kinds added later are found only on restart", e.getMessage());
        }
    }

    /** Starts informers for catalog kinds that are served and not yet watched. */
    /** New definitions (Karta objects changed): kinds they add are watched from now on. */
    public void definitions(Definitions changed) {
        this.definitions = changed;
        discover();
    }

    public synchronized void discover() {
        for (WorkloadDefinition d : definitions.all()) {
            GroupVersionKind kind = d.kind();
            if (workloads.containsKey(kind)) {
                continue;
            }
            served(kind).ifPresent(plural -> {
                ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder()
                        .withGroup(kind.group())
                        .withVersion(kind.version())
                        .withKind(kind.kind())
                        .withPlural(plural)
                        .withNamespaced(true)
                        .build();
                try {
                    workloads.put(
                            kind,
                            client.genericKubernetesResources(ctx)
                                    .inAnyNamespace()
                                    .inform(
                                            handler(o -> onChange.accept(new Change.Workload(
                                                    kind,
                                                    o.getMetadata().getNamespace(),
                                                    o.getMetadata().getName()))),
                                            0));
                    LOG.info("watching {} ({})", kind.qualified(), plural);
                } catch (KubernetesClientException e) {
                    LOG.warn("cannot watch {}: {}", kind.qualified(), e.getMessage());
                }
            });
        }
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
        return trees(nodes == null ? List.of() : nodes.getStore().list());
    }

    public List<JsonNode> pods() {
        return trees(pods == null ? List.of() : pods.getStore().list());
    }

    /** Every cached object of every watched catalog kind. */
    public List<JsonNode> workloads() {
        List<JsonNode> out = new ArrayList<>();
        workloads.values().forEach(i -> out.addAll(trees(i.getStore().list())));
        return out;
    }

    public Optional<JsonNode> workload(GroupVersionKind kind, String namespace, String name) {
        SharedIndexInformer<GenericKubernetesResource> informer = workloads.get(kind);
        if (informer == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(informer.getStore().getByKey(namespace + "/" + name))
                .map(ClusterCache::tree);
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
        SharedIndexInformer<GenericKubernetesResource> informer = workloads.get(kind);
        return informer == null ? Optional.empty() : served(kind);
    }

    private static List<JsonNode> trees(List<? extends HasMetadata> objects) {
        List<JsonNode> out = new ArrayList<>(objects.size());
        objects.forEach(o -> out.add(tree(o)));
        return out;
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
        workloads.values().forEach(SharedIndexInformer::close);
        if (nodes != null) {
            nodes.close();
        }
        if (pods != null) {
            pods.close();
        }
        if (crds != null) {
            crds.close();
        }
    }
}
