package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * Carries out apply decisions against the member cluster. Every write goes through a retry with
 * backoff (transient failures: unreachable, timed out, 429, 5xx) and a circuit breaker, so a sick API
 * server is not hammered. What is still failing after that is {@code RETRY}, never final: only the
 * API server's genuine refusals ({@link ApiAnswer}) are {@code FAILED}. A create answered
 * AlreadyExists (an earlier attempt went through, its answer lost) counts as done when the object
 * there carries this placement and epoch. Thread-safe.
 */
public final class KubeApplier {
    /** What happened, in the protocol's vocabulary. */
    public record Outcome(CommandResult.Outcome outcome, String reason) {}

    private final KubernetesClient client;
    private final Function<GroupVersionKind, Optional<String>> plurals;
    private final boolean createNamespaces;
    private final Writes writes;

    /**
     * @param plurals the resource name under which the cluster serves a kind (empty when it does not)
     * @param attempts tries per write, the first included
     */
    public KubeApplier(
            KubernetesClient client,
            Function<GroupVersionKind, Optional<String>> plurals,
            boolean createNamespaces,
            Duration firstBackoff,
            int attempts) {
        this.client = client;
        this.plurals = plurals;
        this.createNamespaces = createNamespaces;
        this.writes = new Writes(firstBackoff, attempts);
    }

    /** The member copies of workloads' dependencies, written through this applier's retry and circuit breaker. */
    public DependencySync dependencies() {
        return new DependencySync(client, writes, this::ensureNamespace);
    }

    /**
     * The deletes this agent carried out, kept in ConfigMap {@code cartograph-agent-commands} of {@code namespace} (the
     * agent's own), read and written through this applier's retry and circuit breaker ({@link ConfigMapDeletions}).
     */
    public dev.cartograph.agent.order.CommandOrder.Store deletions(String namespace, java.time.Clock clock) {
        return new ConfigMapDeletions(client, namespace, writes, clock);
    }

    public Outcome carryOut(ApplyPolicy.Decision decision) {
        try {
            if (decision instanceof ApplyPolicy.Decision.Create c) {
                return create(c.manifest());
            }
            if (decision instanceof ApplyPolicy.Decision.Update u) {
                return update(u.manifest());
            }
            if (decision instanceof ApplyPolicy.Decision.Delete d) {
                write(() -> delete(d.existing()));
                return new Outcome(CommandResult.Outcome.DELETED, "deleted " + describe(d.existing()));
            }
            if (decision instanceof ApplyPolicy.Decision.NothingToDelete) {
                return new Outcome(CommandResult.Outcome.DELETED, "nothing to delete");
            }
            if (decision instanceof ApplyPolicy.Decision.Stale s) {
                return stale(s.applied());
            }
            return new Outcome(CommandResult.Outcome.REJECTED, ((ApplyPolicy.Decision.Reject) decision).reason());
        } catch (RuntimeException e) {
            return writes.outcome(e, true);
        }
    }

    /**
     * The object a manifest names, read from the API server (not the cache, which may lag a write); empty only when
     * the API server says it is not there (404, or its kind is not served).
     *
     * @throws RuntimeException when the API server could not be asked or did not say (429, 5xx, 403, no answer): the
     *     object may well be there, so nothing may be decided as if it were not; {@link #unread} says what that
     *     means for a command
     */
    public Optional<JsonNode> current(JsonNode manifest) {
        try {
            return read(manifest);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** A command whose object could not be read ({@link #current} threw {@code e}): RETRY, with the API server's answer. */
    public static Outcome unread(JsonNode manifest, RuntimeException e) {
        return new Outcome(
                CommandResult.Outcome.RETRY,
                "nothing done: cannot tell whether " + describe(manifest) + " is there, "
                        + (e instanceof KubernetesClientException k ? ApiAnswer.said(k) : e.toString()));
    }

    /**
     * Sets annotation {@code key} of the object {@code object} names to {@code value}, or removes it when empty: one
     * JSON merge patch of that annotation alone, tried once (the caller tries again later), so nothing else of the
     * object is written. APPLIED when written, DELETED when the object is gone, else as {@link ApiAnswer} says: RETRY
     * while the API server could not be asked, FAILED when it refused.
     */
    public Outcome annotate(JsonNode object, String key, Optional<String> value) {
        ObjectNode patch = Documents.json().createObjectNode();
        ObjectNode annotations = patch.putObject("metadata").putObject("annotations");
        value.ifPresentOrElse(v -> annotations.put(key, v), () -> annotations.putNull(key));
        try {
            op(object).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            return new Outcome(CommandResult.Outcome.APPLIED, "annotated " + describe(object));
        } catch (KubernetesClientException e) {
            return e.getCode() == 404
                    ? new Outcome(CommandResult.Outcome.DELETED, describe(object) + " is gone")
                    : ApiAnswer.of(e, 1);
        } catch (RuntimeException e) {
            return writes.outcome(e, true);
        }
    }

    private Outcome create(JsonNode manifest) {
        try {
            write(() -> createObject(manifest));
            return new Outcome(CommandResult.Outcome.APPLIED, "created " + describe(manifest));
        } catch (KubernetesClientException e) {
            if (!ApiAnswer.alreadyExists(e)) {
                throw e;
            }
            return alreadyThere(manifest);
        }
    }

    /** Create answered AlreadyExists: an earlier attempt may have gone through, or the name is someone else's. */
    private Outcome alreadyThere(JsonNode manifest) {
        Optional<JsonNode> found = read(manifest);
        if (found.isEmpty()) {
            return new Outcome(
                    CommandResult.Outcome.RETRY, describe(manifest) + " was there a moment ago and is gone now");
        }
        if (!found.get().path("metadata").path("deletionTimestamp").isMissingNode()) {
            return new Outcome(
                    CommandResult.Outcome.RETRY,
                    describe(manifest) + " is being deleted; it can be created once it is gone");
        }
        return switch (Ownership.compare(found.get(), manifest)) {
            case SAME_EPOCH ->
                new Outcome(
                        CommandResult.Outcome.APPLIED,
                        "already created " + describe(manifest) + " (an earlier attempt went through)");
            case OLDER_EPOCH -> update(manifest);
            case NEWER_EPOCH -> stale(Ownership.epoch(found.get()).orElse(0L));
            case NOT_OURS ->
                new Outcome(
                        CommandResult.Outcome.FAILED,
                        describe(manifest)
                                + " already exists and was not created by Cartograph for placement "
                                + Ownership.placementId(manifest).orElse("?") + "; it is left alone");
        };
    }

    /**
     * A JSON merge patch of the manifest over what is there: fields the member's API server set or generated (a
     * Job's selector, defaults) stay, so applying the same manifest again changes nothing and is accepted.
     */
    private Outcome update(JsonNode manifest) {
        try {
            write(() -> op(manifest).patch(PatchContext.of(PatchType.JSON_MERGE), manifest.toString()));
            return new Outcome(CommandResult.Outcome.APPLIED, "updated " + describe(manifest));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            return create(manifest); // gone since it was found
        }
    }

    private static Outcome stale(long applied) {
        return new Outcome(CommandResult.Outcome.STALE, "epoch " + applied + " is already applied");
    }

    private Optional<JsonNode> read(JsonNode manifest) {
        return Optional.ofNullable(op(manifest).get()).map(ClusterCache::tree);
    }

    private void write(Runnable action) {
        writes.run(action);
    }

    private void createObject(JsonNode manifest) {
        String ns = manifest.path("metadata").path("namespace").asText();
        ensureNamespace(ns);
        client.genericKubernetesResources(context(manifest))
                .inNamespace(ns)
                .resource(resource(manifest))
                .create();
    }

    /** Creates namespace {@code ns} when it is missing and this agent may create namespaces. */
    private void ensureNamespace(String ns) {
        if (createNamespaces && client.namespaces().withName(ns).get() == null) {
            try {
                client.namespaces()
                        .resource(new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(ns)
                                .endMetadata()
                                .build())
                        .create();
            } catch (KubernetesClientException e) {
                if (!ApiAnswer.alreadyExists(e)) { // created meanwhile: fine
                    throw e;
                }
            }
        }
    }

    private void delete(JsonNode existing) {
        op(existing).delete();
    }

    private Resource<GenericKubernetesResource> op(JsonNode manifest) {
        return client.genericKubernetesResources(context(manifest))
                .inNamespace(manifest.path("metadata").path("namespace").asText())
                .withName(manifest.path("metadata").path("name").asText());
    }

    private ResourceDefinitionContext context(JsonNode manifest) {
        GroupVersionKind kind = GroupVersionKind.of(
                manifest.path("apiVersion").asText(), manifest.path("kind").asText());
        String plural = plurals.apply(kind)
                .orElseThrow(() ->
                        new KubernetesClientException(kind.qualified() + " is not served by this cluster", 404, null));
        return ClusterCache.context(kind, plural);
    }

    static GenericKubernetesResource resource(JsonNode manifest) {
        try {
            return Documents.json().treeToValue(manifest, GenericKubernetesResource.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new KubernetesClientException(
                    "the manifest is not a Kubernetes object: " + e.getOriginalMessage(), 422, null);
        }
    }

    static String describe(JsonNode o) {
        return o.path("kind").asText() + " "
                + o.path("metadata").path("namespace").asText() + "/"
                + o.path("metadata").path("name").asText();
    }
}
