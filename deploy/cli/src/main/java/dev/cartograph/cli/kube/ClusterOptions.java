package dev.cartograph.cli.kube;

import java.util.Optional;
import picocli.CommandLine.Option;

/** kubectl-style flags for reaching a cluster and a namespace in it. Bound by picocli; read once at the command edge. */
public final class ClusterOptions extends ConnectionOptions {
    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NS",
            description = "namespace (default: the context's)")
    public String namespace;

    @Override
    public Optional<String> namespaceOverride() {
        return Optional.ofNullable(namespace).filter(n -> !n.isBlank());
    }
}
