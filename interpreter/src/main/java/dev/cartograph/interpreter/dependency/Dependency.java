package dev.cartograph.interpreter.dependency;

import java.util.Objects;

/**
 * An object in the workload's own namespace that its pods need to start: a ConfigMap or Secret they mount or read,
 * the ServiceAccount they run as, a PersistentVolumeClaim they mount. Immutable.
 *
 * @param optional true when every use of it is marked {@code optional: true} (the pods start without it)
 * @param field    where the first use is, in the pod template (for reasons: {@code spec.volumes[0].configMap.name})
 */
public record Dependency(Kind kind, String name, boolean optional, String field) {

    /** The kinds a pod template can name. */
    public enum Kind {
        CONFIG_MAP("ConfigMap", "configmaps"),
        SECRET("Secret", "secrets"),
        SERVICE_ACCOUNT("ServiceAccount", "serviceaccounts"),
        PERSISTENT_VOLUME_CLAIM("PersistentVolumeClaim", "persistentvolumeclaims");

        private final String kind;
        private final String plural;

        Kind(String kind, String plural) {
            this.kind = kind;
            this.plural = plural;
        }

        /** The Kubernetes kind ({@code ConfigMap}); every one is in the core group, {@code v1}. */
        public String kind() {
            return kind;
        }

        public String plural() {
            return plural;
        }

        public String apiVersion() {
            return "v1";
        }

        /** The kind named {@code kind} ({@code Secret}), if it is one of these. */
        public static java.util.Optional<Kind> of(String kind) {
            for (Kind k : values()) {
                if (k.kind.equals(kind)) {
                    return java.util.Optional.of(k);
                }
            }
            return java.util.Optional.empty();
        }
    }

    public Dependency {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(field, "field");
    }

    @Override
    public String toString() {
        return kind.kind() + " " + name;
    }
}
