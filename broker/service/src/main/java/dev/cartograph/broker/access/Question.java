package dev.cartograph.broker.access;

import java.util.Objects;

/**
 * What the REST API asks before it answers: may the caller {@code verb} the hub's {@code resource}
 * (plural, as the hub serves it) of API {@code group} in {@code namespace}? The shape of a
 * SubjectAccessReview's resource attributes. Immutable.
 *
 * @param group     the API group, empty for the core group
 * @param namespace the namespace; empty asks about every namespace (or a cluster-scoped resource)
 */
public record Question(String verb, String group, String resource, String namespace) {
    public static final String GET = "get";
    public static final String CREATE = "create";

    public Question {
        Objects.requireNonNull(verb, "verb");
        group = group == null ? "" : group;
        Objects.requireNonNull(resource, "resource");
        namespace = namespace == null ? "" : namespace;
        if (verb.isBlank() || resource.isBlank()) {
            throw new IllegalArgumentException(
                    "a question needs a verb and a resource, not '" + verb + "' '" + resource + "'");
        }
    }

    public static Question of(String verb, ApiResource resource, String namespace) {
        return new Question(verb, resource.group(), resource.plural(), namespace);
    }

    /** {@code create pytorchjobs.kubeflow.org in namespace team-a}, as kubectl names a resource. */
    @Override
    public String toString() {
        return verb + " " + resource + (group.isEmpty() ? "" : "." + group)
                + (namespace.isEmpty() ? " in every namespace" : " in namespace " + namespace);
    }
}
