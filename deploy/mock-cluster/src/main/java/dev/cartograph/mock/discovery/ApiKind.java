package dev.cartograph.mock.discovery;

import java.util.List;
import java.util.Objects;

/**
 * One resource type as discovery describes it: where it lives (group, version), how it is named
 * (plural, singular, kind, short names, categories), whether it is namespaced, and its verbs.
 * Immutable and thread-safe.
 *
 * @param group       API group, empty for the core group
 * @param statusSubresource whether {@code PLURAL/status} is served
 * @param scaleSubresource  whether {@code PLURAL/scale} is served (as an autoscaling/v1 Scale)
 */
public record ApiKind(
        String group,
        String version,
        String plural,
        String singular,
        String kind,
        boolean namespaced,
        List<String> verbs,
        List<String> shortNames,
        List<String> categories,
        boolean statusSubresource,
        boolean scaleSubresource) {

    /** The verbs of a normal read-write resource. */
    public static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    public ApiKind {
        Objects.requireNonNull(group, "group");
        requireText(version, "version");
        requireText(plural, "plural");
        requireText(singular, "singular");
        requireText(kind, "kind");
        verbs = List.copyOf(verbs);
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
    }

    /** {@code v1} for the core group, otherwise {@code group/version}. */
    public String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    private static void requireText(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
    }
}
