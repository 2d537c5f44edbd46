package dev.cartograph.cli.kube;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * kubectl-style flags for reaching a cluster, without a namespace: what a command that only touches cluster-scoped
 * objects takes ({@code carto install crds}). {@link ClusterOptions} adds {@code -n}. Bound by picocli; read once at
 * the command edge.
 */
public class ConnectionOptions {
    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    public Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "kubeconfig context")
    public String context;

    @Option(
            names = "--request-timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "per request (default: ${DEFAULT-VALUE})")
    public int requestTimeoutSeconds;

    /** True when the user pointed at a cluster or has a kubeconfig kubectl would use. */
    public boolean clusterConfigured() {
        if (kubeconfig != null || context != null) {
            return true;
        }
        String env = System.getenv("KUBECONFIG");
        return env != null && !env.isBlank()
                || Files.exists(Path.of(System.getProperty("user.home"), ".kube", "config"));
    }

    /** The namespace the user asked for; none here (the context's applies). */
    public Optional<String> namespaceOverride() {
        return Optional.empty();
    }
}
