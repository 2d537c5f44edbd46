package dev.cartograph.broker.access;

import java.util.Objects;

/**
 * A kind as the hub serves it: its API group (empty for the core group) and plural resource name,
 * e.g. {@code kubeflow.org} / {@code pytorchjobs}. What RBAC rules name. Immutable.
 */
public record ApiResource(String group, String plural) {
    public ApiResource {
        group = group == null ? "" : group;
        Objects.requireNonNull(plural, "plural");
        if (plural.isBlank()) {
            throw new IllegalArgumentException("a resource needs its plural name");
        }
    }
}
