package dev.cartograph.broker.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.coordinate.HubDependencies;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.coordinate.PriorityClasses;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.BuiltInKinds;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.kube.KartaWatch;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
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
 * Watches the hub: every catalog kind it serves (CRDs found at start and whenever CRDs change, plus
 * the built-in workload kinds), and namespaces. Hands the coordinator each object selected for
 * federation (the label on the object or on its namespace). Informer handlers only convert and
 * enqueue. The hub's PriorityClasses are watched beside ({@link PriorityClassWatch}), and the ConfigMaps, Secrets,
 * ServiceAccounts and claims workloads need ({@link DependencyWatch}). Thread-safe.
 */
public final class HubWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HubWatch.class);

    private final KubernetesClient client;
    private final Definitions catalog;
    private volatile Definitions definitions;
    private KartaWatch kartas;
    private final String labelKey;
    private final String labelValue;
    private final Consumer<Input> sink;
    private final PriorityClassWatch priorityClasses;
    private final DependencyWatch dependencies;
    private final QueueWatch queues;
    private final Map<String, ResourceDefinitionContext> contexts = new ConcurrentHashMap<>();
    /** Every federated object is offered again this often, so whatever the broker failed to write on it is written again. */
    static final java.time.Duration RESYNC = java.time.Duration.ofMinutes(5);

    private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = new ConcurrentHashMap<>();
    private final Map<String, Boolean> federatedNamespaces = new ConcurrentHashMap<>();
    private final List<SharedIndexInformer<?>> others = new ArrayList<>();
    private volatile SharedIndexInformer<Namespace> namespaceInformer;
    private SharedIndexInformer<CustomResourceDefinition> crdInformer;
    private volatile boolean started;

    HubWatch(
            KubernetesClient client,
            Definitions definitions,
            String labelKey,
            String labelValue,
            Consumer<Input> sink) {
        this.client = client;
        this.catalog = definitions;
        this.definitions = definitions;
        this.labelKey = labelKey;
        this.labelValue = labelValue;
        this.sink = sink;
        this.priorityClasses = new PriorityClassWatch(client);
        this.dependencies = new DependencyWatch(client, sink);
        this.queues = new QueueWatch(client, sink, this::namespaces);
    }

    /** The hub's namespaces as the namespace informer has them (none before it started). */
    private List<Namespace> namespaces() {
        SharedIndexInformer<Namespace> informer = namespaceInformer;
        return informer == null ? List.of() : informer.getStore().list();
    }

    /**
     * Starts the informers; throws when the hub cannot be reached. May be called again after a failure:
     * what already started is kept.
     */
    public synchronized void start() {
        if (namespaceInformer == null) {
            namespaceInformer = client.namespaces()
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(Namespace ns) {
                                    namespace(ns);
                                }

                                @Override
                                public void onUpdate(Namespace old, Namespace ns) {
                                    namespace(ns);
                                }

                                @Override
                                public void onDelete(Namespace ns, boolean unknown) {
                                    federatedNamespaces.remove(ns.getMetadata().getName());
                                    queues.namespaceChanged();
                                }
                            },
                            0);
            others.add(namespaceInformer);
        }
        priorityClasses.start();
        dependencies.start();
        queues.start();
        watchKartas();
        discover();
        if (crdInformer != null) {
            started = true;
            return;
        }
        try {
            crdInformer = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(CustomResourceDefinition crd) {
                                    discover();
                                }

                                @Override
                                public void onUpdate(CustomResourceDefinition a, CustomResourceDefinition b) {}

                                @Override
                                public void onDelete(CustomResourceDefinition crd, boolean unknown) {}
                            },
                            0);
            others.add(crdInformer);
        } catch (RuntimeException e) {
            LOG.warn("cannot watch CRDs on the hub ({}); catalog kinds are discovered at start only", e.getMessage());
        }
        started = true;
    }

    public boolean started() {
        return started;
    }

    /**
     * The kinds ({@code group/Kind}) whose federated objects this watch has all listed now: their informers have synced,
     * and the namespaces' informer too (an object federated by its namespace's label is offered only once the namespace
     * is known). Empty until then; a kind it cannot watch (not served, or discovery failed) is never among them.
     */
    public java.util.Set<String> listed() {
        SharedIndexInformer<Namespace> ns = namespaceInformer;
        if (ns == null || !ns.hasSynced()) {
            return java.util.Set.of();
        }
        java.util.Set<String> out = new java.util.TreeSet<>();
        informers.forEach((key, informer) -> {
            if (informer.hasSynced()) {
                int slash = key.lastIndexOf('/');
                GroupVersionKind gvk = GroupVersionKind.of(key.substring(0, slash), key.substring(slash + 1));
                out.add(gvk.group() + "/" + gvk.kind());
            }
        });
        return out;
    }

    /** The hub's PriorityClasses, for queue priority: none until {@link #start} could watch them. */
    public PriorityClasses priorityClasses() {
        return priorityClasses;
    }

    /** The hub's ConfigMaps, Secrets, ServiceAccounts and claims, copied to members with the gangs that need them. */
    public HubDependencies dependencies() {
        return dependencies;
    }

    /** The group and plural of a kind the hub serves (what RBAC rules name), once this watch found it. */
    public Optional<ApiResource> resource(String apiVersion, String kind) {
        return context(apiVersion, kind).map(c -> new ApiResource(c.getGroup(), c.getPlural()));
    }

    /** The API path of a kind the hub serves, for writes. */
    public Optional<ResourceDefinitionContext> context(String apiVersion, String kind) {
        return Optional.ofNullable(contexts.get(apiVersion + "/" + kind));
    }

    private void namespace(Namespace ns) {
        queues.namespaceChanged();
        boolean selected = labelValue.equals(
                ns.getMetadata().getLabels() == null
                        ? null
                        : ns.getMetadata().getLabels().get(labelKey));
        Boolean before = federatedNamespaces.put(ns.getMetadata().getName(), selected);
        if (selected && !Boolean.TRUE.equals(before)) {
            // objects that were already there are federated now
            for (SharedIndexInformer<GenericKubernetesResource> informer : informers.values()) {
                for (GenericKubernetesResource o : informer.getStore().list()) {
                    if (ns.getMetadata().getName().equals(o.getMetadata().getNamespace())) {
                        offer(o, false);
                    }
                }
            }
        }
    }

    /** The catalog with the hub's {@code kartas.run.ai} over it, as of the last change. */
    public Definitions definitions() {
        return definitions;
    }

    /** Follows the hub's Karta objects (once their CRD exists): each change re-reads them all over the catalog. */
    private void watchKartas() {
        if (kartas != null) {
            return;
        }
        try {
            kartas = KartaWatch.start(client, catalog, defs -> {
                definitions = defs;
                sink.accept(new Input.Definitions(defs));
                discover();
            });
        } catch (RuntimeException e) {
            LOG.warn(
                    "cannot watch kartas.run.ai on the hub ({}); definitions are the built-in catalog", e.getMessage());
        }
    }

    private synchronized void discover() {
        List<CustomResourceDefinition> crds;
        try {
            crds = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .list()
                    .getItems();
        } catch (RuntimeException e) {
            LOG.warn("cannot list CRDs on the hub: {}", e.getMessage());
            crds = List.of();
        }
        for (WorkloadDefinition d : definitions.all()) {
            GroupVersionKind gvk = d.kind();
            String key = gvk.apiVersion() + "/" + gvk.kind();
            if (informers.containsKey(key)) {
                continue;
            }
            List<CustomResourceDefinition> known = crds;
            Optional<String> plural =
                    BuiltInKinds.of(gvk).map(BuiltInKinds.Kind::plural).or(() -> ServedKinds.plural(gvk, known));
            plural.ifPresent(p -> watch(gvk, p));
        }
    }

    private void watch(GroupVersionKind gvk, String plural) {
        ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder()
                .withGroup(gvk.group())
                .withVersion(gvk.version())
                .withKind(gvk.kind())
                .withPlural(plural)
                .withNamespaced(true)
                .build();
        String key = gvk.apiVersion() + "/" + gvk.kind();
        contexts.put(key, ctx);
        try {
            SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources(ctx)
                    .inAnyNamespace()
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(GenericKubernetesResource o) {
                                    offer(o, false);
                                }

                                @Override
                                public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource o) {
                                    offer(o, false);
                                }

                                @Override
                                public void onDelete(GenericKubernetesResource o, boolean unknown) {
                                    offer(o, true);
                                }
                            },
                            RESYNC.toMillis());
            informers.put(key, informer);
            LOG.info("watching {} ({}) on the hub", key, plural);
        } catch (RuntimeException e) {
            contexts.remove(key);
            LOG.warn("cannot watch {} on the hub: {}", key, e.getMessage());
        }
    }

    private void offer(HasMetadata o, boolean deleted) {
        try {
            Map<String, String> labels = o.getMetadata().getLabels();
            boolean selected = labels != null && labelValue.equals(labels.get(labelKey))
                    || Boolean.TRUE.equals(
                            federatedNamespaces.get(o.getMetadata().getNamespace()));
            if (!selected) {
                return;
            }
            JsonNode json = Documents.json().valueToTree(o);
            sink.accept(deleted ? new Input.HubDeleted(json) : new Input.HubChanged(json));
        } catch (RuntimeException e) {
            LOG.warn(
                    "skipping hub object {}/{}: {}",
                    o.getMetadata().getNamespace(),
                    o.getMetadata().getName(),
                    e.toString());
        }
    }

    @Override
    public void close() {
        if (kartas != null) {
            kartas.close();
        }
        informers.values().forEach(SharedIndexInformer::close);
        others.forEach(SharedIndexInformer::close);
        priorityClasses.close();
        dependencies.close();
        queues.close();
    }
}
