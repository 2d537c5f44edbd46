package dev.cartograph.mock.rbac;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.List;

/**
 * One RBAC {@code PolicyRule}, matched as kube-apiserver's RBAC authorizer matches it: {@code *} in verbs,
 * apiGroups and resources matches anything, a star followed by {@code /SUB} any resource's subresource SUB,
 * an empty {@code resourceNames} any name (and a non-empty one only requests that carry one of them), a
 * {@code nonResourceURLs} entry ending in {@code *} a path prefix. Immutable; thread-safe.
 */
public record Rule(
        List<String> verbs,
        List<String> apiGroups,
        List<String> resources,
        List<String> resourceNames,
        List<String> nonResourceURLs) {
    private static final String ALL = "*";

    public Rule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    static Rule of(PolicyRule r) {
        return new Rule(
                orEmpty(r.getVerbs()),
                orEmpty(r.getApiGroups()),
                orEmpty(r.getResources()),
                orEmpty(r.getResourceNames()),
                orEmpty(r.getNonResourceURLs()));
    }

    /** Whether this rule allows the request. */
    boolean allows(RequestAttributes a) {
        if (!contains(verbs, a.verb())) {
            return false;
        }
        if (!a.resourceRequest()) {
            return nonResourceURLs.stream()
                    .anyMatch(u -> u.equals(ALL)
                            || u.equals(a.path())
                            || u.endsWith(ALL) && a.path().startsWith(u.substring(0, u.length() - 1)));
        }
        return contains(apiGroups, a.apiGroup()) && resourceMatches(a) && nameMatches(a);
    }

    private boolean resourceMatches(RequestAttributes a) {
        for (String r : resources) {
            if (r.equals(ALL) || r.equals(a.combinedResource())) {
                return true;
            }
            if (!a.subresource().isEmpty() && r.equals("*/" + a.subresource())) {
                return true;
            }
        }
        return false;
    }

    private boolean nameMatches(RequestAttributes a) {
        return resourceNames.isEmpty() || !a.name().isEmpty() && resourceNames.contains(a.name());
    }

    private static boolean contains(List<String> values, String wanted) {
        return values.contains(ALL) || values.contains(wanted);
    }

    private static List<String> orEmpty(List<String> values) {
        return values == null ? List.of() : values;
    }
}
