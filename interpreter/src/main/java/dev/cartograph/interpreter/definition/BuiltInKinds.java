package dev.cartograph.interpreter.definition;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in Kubernetes kinds Cartograph reads or writes, with their REST names: every API server
 * serves them, but a discovery answer (or a mock server's) may list only CRDs. Pure data.
 */
public final class BuiltInKinds {
    /** A built-in kind's plural, short names and scope. */
    public record Kind(String plural, List<String> shortNames, boolean namespaced) {
        public Kind {
            shortNames = List.copyOf(shortNames);
        }
    }

    private static final Map<String, Kind> KINDS = Map.ofEntries(
            Map.entry("v1/Pod", new Kind("pods", List.of("po"), true)),
            Map.entry("v1/Node", new Kind("nodes", List.of("no"), false)),
            Map.entry("batch/v1/Job", new Kind("jobs", List.of(), true)),
            Map.entry("batch/v1/CronJob", new Kind("cronjobs", List.of("cj"), true)),
            Map.entry("apps/v1/Deployment", new Kind("deployments", List.of("deploy"), true)),
            Map.entry("apps/v1/StatefulSet", new Kind("statefulsets", List.of("sts"), true)),
            Map.entry("apps/v1/ReplicaSet", new Kind("replicasets", List.of("rs"), true)),
            Map.entry("apps/v1/DaemonSet", new Kind("daemonsets", List.of("ds"), true)));

    private BuiltInKinds() {
    }

    public static Optional<Kind> of(GroupVersionKind gvk) {
        return Optional.ofNullable(KINDS.get(gvk.apiVersion() + "/" + gvk.kind()));
    }
}
