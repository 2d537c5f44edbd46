package dev.cartograph.mock.fault;

import dev.cartograph.mock.rbac.RequestAttributes;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which requests a {@link FaultRule} applies to, on the attributes kube-apiserver's {@code RequestInfoFactory}
 * derives from a request ({@link RequestAttributes}, the same the RBAC gate decides on): Kubernetes verbs
 * ({@code get list watch create update patch delete deletecollection}; a non-resource request's verb is its
 * lower-case method, {@code get} for discovery), an API group, a resource ({@code leases}, or
 * {@code pytorchjobs/status} for a subresource), a namespace and a name, each {@link #ANY} by default, and
 * optionally a regular expression the whole path (without query) must match. Naming a group, resource,
 * namespace or name restricts the match to resource requests. Immutable; thread-safe.
 *
 * <pre>{@code
 * RequestMatch.verbs("update").resource("coordination.k8s.io", "leases")     // Lease renewals
 * RequestMatch.discovery()                                                  // /api, /apis, /apis/G/V
 * RequestMatch.verbs("get").resource("kubeflow.org", "pytorchjobs").namespace("ml").name("train")
 * RequestMatch.verbs("patch").path("/apis/kubeflow\\.org/v1/namespaces/[^/]+/pytorchjobs/[^/]+")
 * }</pre>
 *
 * @param verbs the verbs matched; empty for every verb
 * @param path  a pattern the request's path must match entirely; empty for any path
 */
public record RequestMatch(
        Set<String> verbs, String group, String resource, String namespace, String name, Optional<Pattern> path) {
    /** Matches every value. */
    public static final String ANY = "*";

    private static final Set<String> KNOWN_VERBS = Set.of(
            "get",
            "list",
            "watch",
            "create",
            "update",
            "patch",
            "delete",
            "deletecollection",
            "post",
            "put",
            "head",
            "options");
    private static final Pattern DISCOVERY = Pattern.compile("/api(/[^/]+)?/?|/apis(/[^/]+){0,2}/?");

    public RequestMatch {
        verbs = Set.copyOf(verbs);
        Set<String> unknown = verbs.stream()
                .filter(v -> !KNOWN_VERBS.contains(v))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "unknown verbs " + unknown + ": a rule matches the verbs " + KNOWN_VERBS);
        }
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
    }

    /** Every request. */
    public static RequestMatch any() {
        return new RequestMatch(Set.of(), ANY, ANY, ANY, ANY, Optional.empty());
    }

    /** Requests with one of {@code verbs} (lower case, as RBAC rules name them), on any resource or path. */
    public static RequestMatch verbs(String... verbs) {
        return any().withVerbs(Arrays.stream(verbs)
                .map(v -> v.toLowerCase(Locale.ROOT))
                .collect(Collectors.toSet()));
    }

    /**
     * The legacy discovery documents client-go and fabric8 read ({@code GET /api}, {@code /api/v1}, {@code /apis},
     * {@code /apis/GROUP}, {@code /apis/GROUP/VERSION}); not {@code /version} nor OpenAPI.
     */
    public static RequestMatch discovery() {
        return verbs("get").withPath(DISCOVERY);
    }

    /** Only requests on {@code resource} (with {@code /subresource} if any) of API group {@code group} ({@code ""}: core). */
    public RequestMatch resource(String newGroup, String newResource) {
        return new RequestMatch(verbs, newGroup, newResource, namespace, name, path);
    }

    /** Only requests in {@code newNamespace} ({@code ""}: cluster-scoped or across all namespaces). */
    public RequestMatch namespace(String newNamespace) {
        return new RequestMatch(verbs, group, resource, newNamespace, name, path);
    }

    /** Only requests on the object called {@code newName} (a list or watch selecting exactly it by field counts). */
    public RequestMatch name(String newName) {
        return new RequestMatch(verbs, group, resource, namespace, newName, path);
    }

    /** Only requests whose path (without query) matches {@code regex} entirely. */
    public RequestMatch path(String regex) {
        return withPath(Pattern.compile(regex));
    }

    /** Whether {@code request} is one of these. */
    public boolean matches(RequestAttributes request) {
        if (!verbs.isEmpty() && !verbs.contains(request.verb())) {
            return false;
        }
        if (path.isPresent() && !path.get().matcher(request.path()).matches()) {
            return false;
        }
        if (ANY.equals(group) && ANY.equals(resource) && ANY.equals(namespace) && ANY.equals(name)) {
            return true;
        }
        return request.resourceRequest()
                && is(group, request.apiGroup())
                && is(resource, request.combinedResource())
                && is(namespace, request.namespace())
                && is(name, request.name());
    }

    private RequestMatch withVerbs(Set<String> newVerbs) {
        return new RequestMatch(newVerbs, group, resource, namespace, name, path);
    }

    private RequestMatch withPath(Pattern newPath) {
        return new RequestMatch(verbs, group, resource, namespace, name, Optional.of(newPath));
    }

    private static boolean is(String wanted, String actual) {
        return ANY.equals(wanted) || wanted.equals(actual);
    }
}
