package dev.cartograph.agent.kube;

import dev.cartograph.interpreter.definition.BuiltInKinds;
import dev.cartograph.interpreter.kind.GroupVersionKind;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One pass of asking the member's API server which kinds it serves, and under which resource names: one request per
 * group/version, however many kinds of it are asked about. "Not served" only on the server's word — its
 * group/version answers 404, or lists no such kind; when it cannot be asked (429, 5xx, no answer) the answer is
 * {@link Unknown}, with what it said. A built-in kind is always served (its name is known without asking). One
 * pass at a time: not thread-safe.
 */
final class ApiDiscovery {
    /** What discovery says of a kind. */
    sealed interface Answer {}

    /** Served, under this resource name. */
    record Served(String plural) implements Answer {}

    /** The API server says it does not serve it. */
    record NotServed() implements Answer, Listing {}

    /** The API server could not be asked or did not say; {@code retryAfter} in seconds, 0 when it did not say. */
    record Unknown(String reason, long retryAfter) implements Answer, Listing {}

    /** What discovery said of a group/version. */
    private sealed interface Listing {}

    /** A group/version's resource names by kind. */
    private record Listed(Map<String, String> plurals) implements Listing {}

    private final KubernetesClient client;
    private final Map<String, Listing> asked = new HashMap<>();

    ApiDiscovery(KubernetesClient client) {
        this.client = client;
    }

    Answer of(GroupVersionKind kind) {
        Listing listing = asked.computeIfAbsent(kind.apiVersion(), this::resources);
        if (listing instanceof Listed l && l.plurals().containsKey(kind.kind())) {
            return new Served(l.plurals().get(kind.kind()));
        }
        Optional<String> builtIn = BuiltInKinds.of(kind).map(BuiltInKinds.Kind::plural);
        if (builtIn.isPresent()) {
            return new Served(builtIn.get());
        }
        return listing instanceof Unknown u ? u : new NotServed();
    }

    private Listing resources(String apiVersion) {
        try {
            APIResourceList list = client.getApiResources(apiVersion); // null on 404
            if (list == null || list.getResources() == null) {
                return new NotServed();
            }
            Map<String, String> plurals = new HashMap<>();
            for (APIResource r : list.getResources()) {
                if (r.getKind() != null && r.getName() != null && !r.getName().contains("/")) {
                    plurals.putIfAbsent(r.getKind(), r.getName()); // a subresource (pods/status) is not the kind's
                }
            }
            return new Listed(plurals);
        } catch (RuntimeException e) {
            return new Unknown(said(e), retryAfter(e));
        }
    }

    /** What the API server answered, or that it did not. */
    static String said(Throwable e) {
        return e instanceof KubernetesClientException k ? ApiAnswer.said(k) : e.toString();
    }

    /** The API server's Retry-After, in seconds, when its answer carried one ({@code details.retryAfterSeconds}); else 0. */
    static long retryAfter(Throwable e) {
        if (e instanceof KubernetesClientException k
                && k.getStatus() != null
                && k.getStatus().getDetails() != null
                && k.getStatus().getDetails().getRetryAfterSeconds() != null) {
            return Math.max(0, k.getStatus().getDetails().getRetryAfterSeconds());
        }
        return 0;
    }
}
