package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.WorkloadDefinition;
import dev.cartograph.interpreter.kind.GroupVersionKind;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Informers on Nodes, Pods and every catalog kind the cluster serves (found by discovery at start
 * and again whenever a CRD appears). Handlers only signal what changed ({@code onChange}); readers
 * take snapshots of the caches as JSON trees. The caches hold what the agent's readers use, as JSON
 * bytes ({@link CompactStore}; what is kept and who reads it: {@link Kept}).
 *
 * <p>A kind is "not served" only when the API server says so ({@link ApiDiscovery}): its group/version
 * answers 404, or its list of resources lacks the kind. When the API server cannot be asked (429, 5xx, no
 * answer), or the kind's informer cannot list or its watch stops, the kind is {@linkplain #unwatched()
 * unwatched} with the reason, asked about again on the cache's own thread (after 1, 2, 4 … up to
 * {@value #MAX_BACKOFF_TICKS} seconds, or the API server's Retry-After when it says one), and reported so:
 * its copies may be missing from the summaries without being gone. Starting waits for such a kind no longer
 * than the client's own retries of one request. Thread-safe.
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

    /** The longest wait, in ticks of a second, before a kind that could not be watched is asked about again. */
    static final int MAX_BACKOFF_TICKS = 30;

    private static final Change CAPACITY = new Change.Capacity();

    private final KubernetesClient client;
    private volatile Definitions definitions;
    private final Consumer<Change> onChange;
    private final Map<GroupVersionKind, Watched> workloads = new ConcurrentHashMap<>();
    /** Catalog kinds the API server could not be asked about, or whose informer failed: asked again on {@link #retries}. */
    private final Map<GroupVersionKind, Failing> failing = new ConcurrentHashMap<>();

    private final CompactStore<Node> nodeStore = new CompactStore<>(Node.class, Kept::node);
    private volatile SharedIndexInformer<Node> nodes;
    private volatile Watched pods;
    private volatile SharedIndexInformer<CustomResourceDefinition> crds;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "agent-discovery");
        t.setDaemon(true);
        return t;
    });
    /** Seconds since the start, counted by {@link #retries}: when a failing kind is due again. */
    private final AtomicLong tick = new AtomicLong();

    private final AtomicBoolean rediscoverQueued = new AtomicBoolean();
    private volatile boolean closed;

    /** An informer, the store it fills, and the resource name it lists. */
    private record Watched(
            SharedIndexInformer<GenericKubernetesResource> informer,
            CompactStore<GenericKubernetesResource> store,
            String plural) {}

    /** Why a kind is not watched for now, how many times in a row that failed, and the tick it is due again. */
    private record Failing(String reason, int failures, long due) {}

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
        nodes = client.nodes()
                .runnableInformer(0)
                .itemStore(nodeStore)
                .removeNamespaceIndex()
                .addEventHandler(handler(o -> onChange.accept(CAPACITY)))
                .run();
        pods = watch(client.genericKubernetesResources(context(POD, "pods")).inAnyNamespace(), "pods", o -> {
            onChange.accept(CAPACITY);
            if (workloads.containsKey(POD)) {
                onChange.accept(workloadChange(POD, o));
            }
        });
        discover();
        try {
            crds = client.apiextensions().v1().customResourceDefinitions().inform(handler(o -> rediscover()), 0);
        } catch (KubernetesClientException e) {
            LOG.warn("cannot watch CRDs ({}); catalog kinds added later are found only on restart", e.getMessage());
        }
        retries.scheduleWithFixedDelay(this::retryDue, 1, 1, TimeUnit.SECONDS);
    }

    /** Starts an informer and waits for its first list; throws (the informer closed) when it cannot list. */
    private static Watched watch(
            Informable<GenericKubernetesResource> what, String plural, Consumer<GenericKubernetesResource> signal) {
        CompactStore<GenericKubernetesResource> store =
                new CompactStore<>(GenericKubernetesResource.class, Kept::workload);
        SharedIndexInformer<GenericKubernetesResource> informer =
                what.runnableInformer(0).itemStore(store).removeNamespaceIndex().addEventHandler(handler(signal));
        try {
            informer.run();
        } catch (RuntimeException e) {
            informer.close();
            throw e;
        }
        return new Watched(informer, store, plural);
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

    /**
     * Starts informers for catalog kinds that are served and not yet watched, asking about each (those failing
     * included) now; one discovery request per group/version.
     */
    public synchronized void discover() {
        Set<GroupVersionKind> catalog = new HashSet<>();
        ApiDiscovery asked = new ApiDiscovery(client);
        for (WorkloadDefinition d : definitions.all()) {
            catalog.add(d.kind());
            if (!workloads.containsKey(d.kind())) {
                attempt(d.kind(), asked);
            }
        }
        if (failing.keySet().retainAll(catalog)) { // kinds the definitions no longer name are not waited for
            onChange.accept(CAPACITY);
        }
    }

    /** A CRD changed: {@link #discover()} on the cache's own thread (once for a burst), not the informer's. */
    private void rediscover() {
        if (!closed && rediscoverQueued.compareAndSet(false, true)) {
            retries.execute(() -> {
                rediscoverQueued.set(false);
                guarded(this::discover);
            });
        }
    }

    /** Each second, on the cache's own thread: asks again about the failing kinds whose wait is over. */
    private void retryDue() {
        long now = tick.incrementAndGet();
        guarded(() -> {
            synchronized (this) {
                ApiDiscovery asked = new ApiDiscovery(client);
                failing.forEach((kind, f) -> {
                    if (f.due() <= now && !workloads.containsKey(kind)) {
                        attempt(kind, asked);
                    }
                });
            }
        });
    }

    private void guarded(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) { // a scheduled task that throws is never run again
            LOG.warn("discovery failed, trying again: {}", e.toString());
        }
    }

    /** Asks whether {@code kind} is served and watches it when it is; a failure makes it {@link #failing}. */
    private void attempt(GroupVersionKind kind, ApiDiscovery asked) {
        ApiDiscovery.Answer d = asked.of(kind);
        if (d instanceof ApiDiscovery.NotServed) {
            if (failing.remove(kind) != null) {
                LOG.info("{} is not served by this cluster; not watched", kind.qualified());
                onChange.accept(CAPACITY);
            }
            return;
        }
        if (d instanceof ApiDiscovery.Unknown u) {
            fail(kind, "discovery of " + kind.apiVersion() + ": " + u.reason(), u.retryAfter());
            return;
        }
        String plural = ((ApiDiscovery.Served) d).plural();
        if (kind.equals(POD) && pods != null) {
            // the capacity informer's pods: announce each as a new informer's first list would
            workloads.put(POD, pods);
            pods.store().keySet().forEach(key -> onChange.accept(workloadChange(POD, key)));
            LOG.info("watching {} ({}, with the capacity informer)", kind.qualified(), plural);
            return;
        }
        try {
            Watched w = watch(
                    client.genericKubernetesResources(context(kind, plural)).inAnyNamespace(),
                    plural,
                    o -> onChange.accept(workloadChange(kind, o)));
            workloads.put(kind, w);
            w.informer().stopped().whenComplete((done, error) -> stopped(kind, w, error));
            if (failing.remove(kind) != null) {
                onChange.accept(CAPACITY);
            }
            LOG.info("watching {} ({})", kind.qualified(), plural);
        } catch (RuntimeException e) {
            fail(kind, "its informer cannot list " + plural + ": " + ApiDiscovery.said(e), ApiDiscovery.retryAfter(e));
        }
    }

    /** A watched kind's informer stopped: unwatched (its objects are no longer known) until it can be watched again. */
    private void stopped(GroupVersionKind kind, Watched w, Throwable error) {
        if (closed || error == null) {
            return;
        }
        synchronized (this) {
            if (workloads.remove(kind, w)) {
                w.informer().close();
                fail(kind, "its watch stopped: " + ApiDiscovery.said(error), 0);
            }
        }
    }

    /** {@code kind} cannot be watched for now: asked again after a backoff (at least {@code retryAfter} seconds). */
    private void fail(GroupVersionKind kind, String reason, long retryAfter) {
        Failing before = failing.get(kind);
        int failures = before == null ? 1 : before.failures() + 1;
        long wait = Math.max(Math.min(1L << Math.min(failures - 1, 10), MAX_BACKOFF_TICKS), retryAfter);
        failing.put(kind, new Failing(reason, failures, tick.get() + wait));
        if (before == null || !before.reason().equals(reason)) {
            LOG.warn(
                    "cannot watch {} for now ({}); reported unwatched, asking again in {}s",
                    kind.qualified(),
                    reason,
                    wait);
            onChange.accept(CAPACITY); // the next cluster summary says so
        } else {
            LOG.debug("still cannot watch {} ({}); asking again in {}s", kind.qualified(), reason, wait);
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

    /**
     * The catalog kinds this cluster may serve that cannot be watched for now, by kind, with why (the API server could
     * not be asked about them, or their informer failed); sorted. Kinds the cluster does not serve are not among them.
     */
    public Map<GroupVersionKind, String> unwatched() {
        Map<GroupVersionKind, String> out = new TreeMap<>(java.util.Comparator.comparing(GroupVersionKind::qualified));
        failing.forEach((kind, f) -> out.put(kind, f.reason()));
        return out;
    }

    /** Why a catalog kind of this group cannot be watched for now (a Delete names its copy by group and kind). */
    public Optional<String> unwatched(String group, String kind) {
        return failing.entrySet().stream()
                .filter(e ->
                        e.getKey().group().equals(group) && e.getKey().kind().equals(kind))
                .map(e -> e.getKey().qualified() + " cannot be watched here for now: "
                        + e.getValue().reason())
                .findFirst();
    }

    /** The resource name under which the cluster serves a watched kind; empty when the kind is not watched. */
    public Optional<String> plural(GroupVersionKind kind) {
        return Optional.ofNullable(workloads.get(kind)).map(Watched::plural);
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
        closed = true;
        retries.shutdownNow();
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
