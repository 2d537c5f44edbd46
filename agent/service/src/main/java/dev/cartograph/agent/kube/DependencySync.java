package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.Dependencies;
import dev.cartograph.agent.apply.DependencyRef;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.protocol.MetadataKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the member copies of placements' dependencies as {@link Dependencies} decides, each from what the API
 * server holds at that moment: read, decide and write run together inside one retried call, so a retry after a
 * conflict or a lost answer decides again. Reaches ConfigMaps, Secrets, ServiceAccounts and claims only in the
 * workload's namespace (by name, and listed by a placement's label); none is watched or read cluster-wide. Logs and
 * reasons name objects, never their data. Never throws: failures are outcomes. Thread-safe (the command thread
 * uses it).
 */
public final class DependencySync {
    private static final Logger LOG = LoggerFactory.getLogger(DependencySync.class);
    /** The served names of the dependency kinds (all core {@code v1}), in the order they are listed. */
    private static final Map<String, String> PLURALS = Map.of(
            "ServiceAccount", "serviceaccounts",
            "ConfigMap", "configmaps",
            "Secret", "secrets",
            "PersistentVolumeClaim", "persistentvolumeclaims");

    private static final List<String> KINDS = List.of("ServiceAccount", "ConfigMap", "Secret", "PersistentVolumeClaim");

    private final KubernetesClient client;
    private final Writes writes;
    private final Consumer<String> ensureNamespace;

    DependencySync(KubernetesClient client, Writes writes, Consumer<String> ensureNamespace) {
        this.client = client;
        this.writes = writes;
        this.ensureNamespace = ensureNamespace;
    }

    /**
     * What an apply did to its dependencies: {@code failure} when one could not be used (then what this apply had
     * labelled is released again already), and the copies it labelled for the placement (created or found; those
     * labelled for it before are not among them).
     */
    public record Use(Optional<KubeApplier.Outcome> failure, List<DependencyRef> added) {
        public Use {
            added = List.copyOf(added);
        }
    }

    /** Creates or updates every dependency for {@code placementId}, in order; stops at the first that fails. */
    public Use use(String placementId, List<JsonNode> dependencies) {
        List<DependencyRef> added = new ArrayList<>();
        for (JsonNode dependency : dependencies) {
            DependencyRef ref = DependencyRef.of(dependency);
            AtomicReference<Boolean> labelledBefore = new AtomicReference<>(); // at the first read, not a retry's
            Optional<KubeApplier.Outcome> failure = change(ref, placementId, current -> {
                labelledBefore.compareAndSet(null, Dependencies.labelledFor(current, placementId));
                return Dependencies.use(current, dependency, placementId);
            });
            if (!Boolean.TRUE.equals(labelledBefore.get())) {
                added.add(ref);
            }
            if (failure.isPresent()) {
                release(placementId, added);
                return new Use(failure, List.of());
            }
        }
        return new Use(Optional.empty(), added);
    }

    /** The workload was not applied: what {@code use} added is released again (best effort, failures logged). */
    public void undo(String placementId, Use use) {
        release(placementId, use.added());
    }

    /**
     * The workload was applied: copies labelled for the placement in {@code namespace} that {@code dependencies} no
     * longer names are released.
     */
    public Optional<KubeApplier.Outcome> releaseDropped(
            String placementId, String namespace, List<JsonNode> dependencies) {
        try {
            return release(placementId, Dependencies.dropped(labelled(placementId, namespace), dependencies));
        } catch (RuntimeException e) {
            return Optional.of(failed("dependencies in " + namespace + " not read", e));
        }
    }

    /** The placement's workload is gone from this cluster: every copy labelled for it is released. */
    public Optional<KubeApplier.Outcome> releaseAll(String placementId, String namespace) {
        try {
            return release(placementId, labelled(placementId, namespace));
        } catch (RuntimeException e) {
            return Optional.of(failed("dependencies in " + namespace + " not read", e));
        }
    }

    /** Releases each; the first failure, after trying all. */
    private Optional<KubeApplier.Outcome> release(String placementId, List<DependencyRef> refs) {
        Optional<KubeApplier.Outcome> first = Optional.empty();
        for (DependencyRef ref : refs) {
            Optional<KubeApplier.Outcome> failure =
                    change(ref, placementId, current -> Dependencies.release(current, placementId));
            failure.ifPresent(f -> LOG.warn("{} not released for placement {}: {}", ref, placementId, f.reason()));
            first = first.or(() -> failure);
        }
        return first;
    }

    /** The copies labelled for the placement in {@code namespace}, by kind then name. */
    private List<DependencyRef> labelled(String placementId, String namespace) {
        return writes.call(() -> {
            List<DependencyRef> refs = new ArrayList<>();
            for (String kind : KINDS) {
                kind(kind, namespace)
                        .withLabel(Dependencies.usedBy(placementId))
                        .withLabel(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY)
                        .withLabel(MetadataKeys.DEPENDENCY_LABEL, Dependencies.TRUE)
                        .list()
                        .getItems()
                        .stream()
                        .map(ClusterCache::tree)
                        .filter(Dependencies::ours)
                        .map(DependencyRef::of)
                        .sorted(java.util.Comparator.comparing(DependencyRef::name))
                        .forEach(refs::add);
            }
            return refs;
        });
    }

    /** Reads {@code ref}, decides, writes; again once when the object appeared or vanished in between. */
    private Optional<KubeApplier.Outcome> change(
            DependencyRef ref, String placementId, Function<Optional<JsonNode>, Dependencies.Change> decide) {
        try {
            Dependencies.Change done = writes.call(() -> {
                try {
                    return act(ref, decide.apply(read(ref)));
                } catch (KubernetesClientException e) {
                    if (!ApiAnswer.alreadyExists(e) && e.getCode() != 404) {
                        throw e;
                    }
                    return act(ref, decide.apply(read(ref)));
                }
            });
            if (done instanceof Dependencies.Change.Refuse r) {
                return Optional.of(new KubeApplier.Outcome(r.outcome(), r.reason()));
            }
            if (!(done instanceof Dependencies.Change.None)) {
                LOG.info("{} {} (placement {})", verb(done), ref, placementId);
            }
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(failed(ref.toString() + " not written", e));
        }
    }

    private Dependencies.Change act(DependencyRef ref, Dependencies.Change change) {
        if (change instanceof Dependencies.Change.Create c) {
            ensureNamespace.accept(ref.namespace());
            kind(ref.kind(), ref.namespace())
                    .resource(KubeApplier.resource(c.object()))
                    .create();
        } else if (change instanceof Dependencies.Change.Replace r) {
            kind(ref.kind(), ref.namespace())
                    .resource(KubeApplier.resource(r.object()))
                    .update();
        } else if (change instanceof Dependencies.Change.Delete) {
            named(ref).delete();
        }
        return change;
    }

    private Optional<JsonNode> read(DependencyRef ref) {
        return Optional.ofNullable(named(ref).get()).map(ClusterCache::tree);
    }

    private Resource<GenericKubernetesResource> named(DependencyRef ref) {
        return kind(ref.kind(), ref.namespace()).withName(ref.name());
    }

    private NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            kind(String kind, String namespace) {
        String plural = PLURALS.get(kind);
        if (plural == null) { // the policy refuses other kinds before anything is written
            throw new IllegalArgumentException(kind + " is not a dependency kind");
        }
        return client.genericKubernetesResources(ClusterCache.context(GroupVersionKind.of("v1", kind), plural))
                .inNamespace(namespace);
    }

    /** {@code what}: the server's answer; an unexpected failure by its type only (its text might quote a Secret). */
    private KubeApplier.Outcome failed(String what, RuntimeException e) {
        KubeApplier.Outcome o = writes.outcome(e, false);
        return new KubeApplier.Outcome(o.outcome(), what + ": " + o.reason());
    }

    private static String verb(Dependencies.Change change) {
        return change instanceof Dependencies.Change.Create
                ? "created"
                : change instanceof Dependencies.Change.Delete ? "deleted" : "updated";
    }
}
