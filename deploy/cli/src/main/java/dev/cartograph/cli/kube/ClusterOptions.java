package dev.cartograph.cli.kube;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** kubectl-style flags for reaching a cluster. Bound by picocli; read once at the command edge. */
public final class ClusterOptions {
    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    public Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "kubeconfig context")
    public String context;

    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NS",
            description = "namespace (default: the context's)")
    public String namespace;

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

    public Optional<String> namespaceOverride() {
        return Optional.ofNullable(namespace).filter(n -> !n.isBlank());
    }
}
