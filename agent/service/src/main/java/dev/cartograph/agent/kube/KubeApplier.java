package dev.cartograph.agent.kube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.agent.apply.ApplyPolicy;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.definition.GroupVersionKind;
import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Carries out apply decisions against the member cluster. Every write goes through a retry with
 * backoff (transient failures: unreachable, 429, 5xx) and a circuit breaker, so a sick API server
 * is not hammered. Thread-safe.
 */
public final class KubeApplier {
    /** What happened, in the protocol's vocabulary. */
    public record Outcome(CommandResult.Outcome outcome, String reason) {
    }

    private final KubernetesClient client;
    private final ClusterCache cache;
    private final boolean createNamespaces;
    private final Retry retry;
    private final CircuitBreaker breaker;

    public KubeApplier(KubernetesClient client, ClusterCache cache, boolean createNamespaces, Duration firstBackoff, int attempts) {
        this.client = client;
        this.cache = cache;
        this.createNamespaces = createNamespaces;
        this.retry = Retry.of("kube-writes", RetryConfig.custom().maxAttempts(attempts)
                .intervalFunction(io.github.resilience4j.core.IntervalFunction.ofExponentialBackoff(firstBackoff, 2.0))
                .retryOnException(KubeApplier::transient_).build());
        this.breaker = CircuitBreaker.of("kube-writes", CircuitBreakerConfig.custom().failureRateThreshold(50)
                .slidingWindowSize(20).minimumNumberOfCalls(10).waitDurationInOpenState(Duration.ofSeconds(30))
                .recordException(KubeApplier::transient_).build());
    }

    public Outcome carryOut(ApplyPolicy.Decision decision) {
        try {
            if (decision instanceof ApplyPolicy.Decision.Create c) {
                write(() -> create(c.manifest()));
                return new Outcome(CommandResult.Outcome.APPLIED, "created " + describe(c.manifest()));
            }
            if (decision instanceof ApplyPolicy.Decision.Update u) {
                write(() -> update(u.manifest()));
                return new Outcome(CommandResult.Outcome.APPLIED, "updated " + describe(u.manifest()));
            }
            if (decision instanceof ApplyPolicy.Decision.Delete d) {
                write(() -> delete(d.existing()));
                return new Outcome(CommandResult.Outcome.DELETED, "deleted " + describe(d.existing()));
            }
            if (decision instanceof ApplyPolicy.Decision.NothingToDelete) {
                return new Outcome(CommandResult.Outcome.DELETED, "nothing to delete");
            }
            if (decision instanceof ApplyPolicy.Decision.Stale s) {
                return new Outcome(CommandResult.Outcome.STALE, "epoch " + s.applied() + " is already applied");
            }
            return new Outcome(CommandResult.Outcome.REJECTED, ((ApplyPolicy.Decision.Reject) decision).reason());
        } catch (CallNotPermittedException e) {
            return new Outcome(CommandResult.Outcome.FAILED, "the API server keeps failing; writes paused (circuit open)");
        } catch (KubernetesClientException e) {
            return new Outcome(CommandResult.Outcome.FAILED, "HTTP " + e.getCode() + ": " + e.getMessage());
        }
    }

    /** The object a manifest names, read from the API server (not the cache, which may lag a write). */
    public java.util.Optional<JsonNode> current(JsonNode manifest) {
        try {
            GenericKubernetesResource r = client.genericKubernetesResources(context(manifest))
                    .inNamespace(manifest.path("metadata").path("namespace").asText())
                    .withName(manifest.path("metadata").path("name").asText()).get();
            return java.util.Optional.ofNullable(r).map(ClusterCache::tree);
        } catch (KubernetesClientException e) {
            return java.util.Optional.empty();
        }
    }

    private void write(Runnable action) {
        Supplier<Object> call = () -> {
            action.run();
            return null;
        };
        Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(breaker, call)).get();
    }

    private void create(JsonNode manifest) {
        String ns = manifest.path("metadata").path("namespace").asText();
        if (createNamespaces && client.namespaces().withName(ns).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        }
        client.genericKubernetesResources(context(manifest)).inNamespace(ns).resource(resource(manifest)).create();
    }

    private void update(JsonNode manifest) {
        String ns = manifest.path("metadata").path("namespace").asText();
        var op = client.genericKubernetesResources(context(manifest)).inNamespace(ns).withName(manifest.path("metadata").path("name").asText());
        GenericKubernetesResource current = op.get();
        if (current == null) {
            create(manifest);
            return;
        }
        GenericKubernetesResource desired = resource(manifest);
        desired.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
        client.genericKubernetesResources(context(manifest)).inNamespace(ns).resource(desired).update();
    }

    private void delete(JsonNode existing) {
        client.genericKubernetesResources(context(existing)).inNamespace(existing.path("metadata").path("namespace").asText())
                .withName(existing.path("metadata").path("name").asText()).delete();
    }

    private ResourceDefinitionContext context(JsonNode manifest) {
        GroupVersionKind kind = GroupVersionKind.of(manifest.path("apiVersion").asText(), manifest.path("kind").asText());
        String plural = cache.plural(kind).orElseThrow(() -> new KubernetesClientException(
                kind.qualified() + " is not served by this cluster", 404, null));
        return new ResourceDefinitionContext.Builder().withGroup(kind.group()).withVersion(kind.version()).withKind(kind.kind())
                .withPlural(plural).withNamespaced(true).build();
    }

    private static GenericKubernetesResource resource(JsonNode manifest) {
        try {
            return Documents.json().treeToValue(manifest, GenericKubernetesResource.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new KubernetesClientException("the manifest is not a Kubernetes object: " + e.getOriginalMessage(), 422, null);
        }
    }

    private static String describe(JsonNode o) {
        return o.path("kind").asText() + " " + o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText();
    }

    /** Worth retrying: unreachable, throttled, or a server-side error. */
    static boolean transient_(Throwable t) {
        return t instanceof KubernetesClientException e && (e.getCode() <= 0 || e.getCode() == 429 || e.getCode() >= 500);
    }
}
