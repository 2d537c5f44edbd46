package dev.cartograph.interpreter.kind;

import java.util.Objects;

/** A Kubernetes group, version and kind; the core group is the empty string. Immutable. */
public record GroupVersionKind(String group, String version, String kind) {

    public GroupVersionKind {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
    }

    /** From an object's {@code apiVersion} ({@code batch/v1}, {@code v1}) and {@code kind}. */
    public static GroupVersionKind of(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        return slash < 0
                ? new GroupVersionKind("", apiVersion, kind)
                : new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1), kind);
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** {@code Kind.version.group}, as kubectl spells a fully qualified type. */
    public String qualified() {
        return group.isEmpty() ? kind + "." + version : kind + "." + version + "." + group;
    }

    @Override
    public String toString() {
        return apiVersion() + " " + kind;
    }
}
