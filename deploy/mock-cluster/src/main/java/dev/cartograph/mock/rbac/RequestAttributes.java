package dev.cartograph.mock.rbac;

import dev.cartograph.mock.selector.FieldSelector;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the authorizer decides on, derived from a request the way kube-apiserver's {@code RequestInfoFactory}
 * does: {@code /api/v1/...} and {@code /apis/GROUP/VERSION/...} with at least a resource are resource requests
 * (verb from the method: GET get/list/watch, POST create, PUT update, PATCH patch, DELETE delete/deletecollection;
 * a {@code /watch/} path segment or {@code ?watch=true} (or {@code 1}, as Go reads a bool) on a collection is watch; a list or watch whose field
 * selector names exactly one {@code metadata.name} carries that name); {@code /api/v1/namespaces/NAME} is the
 * namespace NAME itself (its {@code status} and {@code finalize} subresources too); every other path is a
 * non-resource request whose verb is the lower-case method. Immutable; thread-safe.
 *
 * @param apiGroup    {@code ""} for the core group and for non-resource requests
 * @param namespace   {@code ""} when cluster-scoped or across all namespaces
 * @param subresource {@code ""} when none
 * @param name        {@code ""} for a collection
 */
public record RequestAttributes(
        String verb,
        boolean resourceRequest,
        String apiGroup,
        String apiVersion,
        String resource,
        String subresource,
        String namespace,
        String name,
        String path) {
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");
    /** What Go's {@code strconv.ParseBool} reads as true: how the server decodes {@code ?watch=}. */
    private static final Set<String> GO_TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");

    public RequestAttributes {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(apiGroup, "apiGroup");
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(subresource, "subresource");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
    }

    /** A resource request, as a hand-written test or a rule check states it. */
    public static RequestAttributes resource(
            String verb, String apiGroup, String resource, String subresource, String namespace, String name) {
        return new RequestAttributes(verb, true, apiGroup, "", resource, subresource, namespace, name, "");
    }

    /** The attributes of {@code method uri} ({@code uri} with its query, as received). */
    public static RequestAttributes of(String method, String uri) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        String query = q < 0 ? "" : uri.substring(q + 1);
        String lower = method.toLowerCase(Locale.ROOT);
        List<String> parts = new ArrayList<>(
                Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList());
        int prefix = parts.isEmpty() ? 0 : "api".equals(parts.get(0)) ? 2 : "apis".equals(parts.get(0)) ? 3 : 0;
        if (prefix == 0 || parts.size() <= prefix) {
            return new RequestAttributes(lower, false, "", "", "", "", "", "", path);
        }
        String group = prefix == 3 ? parts.get(1) : "";
        String version = parts.get(prefix - 1);
        List<String> rest = new ArrayList<>(parts.subList(prefix, parts.size()));
        String verb = verbOf(lower);
        if ("watch".equals(rest.get(0)) && rest.size() >= 2) {
            verb = "watch";
            rest.remove(0);
        }
        String namespace = "";
        if ("namespaces".equals(rest.get(0)) && rest.size() > 1) {
            namespace = rest.get(1);
            if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
                rest = rest.subList(2, rest.size());
            }
        }
        String resource = rest.get(0);
        String name = rest.size() >= 2 ? rest.get(1) : "";
        String subresource = rest.size() >= 3 ? rest.get(2) : "";
        if (name.isEmpty() && "get".equals(verb)) {
            verb = param(query, "watch").filter(GO_TRUE::contains).isPresent() ? "watch" : "list";
            name = param(query, "fieldSelector")
                    .flatMap(RequestAttributes::exactName)
                    .orElse("");
        }
        if (name.isEmpty() && "delete".equals(verb)) {
            verb = "deletecollection";
        }
        return new RequestAttributes(verb, true, group, version, resource, subresource, namespace, name, path);
    }

    /** {@code resource/subresource}, or the resource alone: what a rule's {@code resources} entry names. */
    public String combinedResource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    private static String verbOf(String method) {
        return switch (method) {
            case "post" -> "create";
            case "get", "head" -> "get";
            case "put" -> "update";
            case "patch" -> "patch";
            case "delete" -> "delete";
            default -> "";
        };
    }

    private static Optional<String> param(String query, String key) {
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            if (key.equals(URLDecoder.decode(k, StandardCharsets.UTF_8))) {
                return Optional.of(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    /** The value of an equality on {@code metadata.name} in a valid selector (as RequiresExactMatch). */
    private static Optional<String> exactName(String selector) {
        if (!(FieldSelector.parse(selector) instanceof FieldSelector.Valid valid)) {
            return Optional.empty();
        }
        return valid.selector().requirements().stream()
                .filter(r -> r.equal()
                        && "metadata.name".equals(r.path())
                        && !r.value().isEmpty())
                .map(FieldSelector.Requirement::value)
                .filter(v -> !v.contains("/"))
                .findFirst();
    }
}
