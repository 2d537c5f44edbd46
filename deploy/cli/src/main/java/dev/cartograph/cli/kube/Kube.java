package dev.cartograph.cli.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;

/**
 * Opens a fabric8 client from kubectl-style options, and turns fabric8's failures into
 * {@link ClusterError}s. The only place that builds clients.
 */
public final class Kube {
    private Kube() {}

    /**
     * A cluster could not be read, in words a user can act on (the kubeconfig, the network, a
     * permission); the command reports it and exits. Retrying helps only once that cause is fixed.
     * Unchecked so that reading code stays free of fabric8 types: adapters throw it, commands catch it.
     */
    public static final class ClusterError extends RuntimeException {
        private final int code;

        public ClusterError(String message) {
            this(0, message);
        }

        ClusterError(int code, String message) {
            super(message);
            this.code = code;
        }

        /** The API server's HTTP status, or 0 when it gave none (unreachable, bad kubeconfig). */
        public int code() {
            return code;
        }
    }

    /** A failed fabric8 call as a {@link ClusterError} with its one-line reason. */
    static ClusterError failed(KubernetesClientException e) {
        return new ClusterError(Math.max(0, e.getCode()), reason(e));
    }

    static KubernetesClient connect(ConnectionOptions options) {
        Config config;
        try {
            if (options.kubeconfig != null) {
                config = Config.fromKubeconfig(
                        options.context, Files.readString(options.kubeconfig), options.kubeconfig.toString());
            } else {
                config = Config.autoConfigure(options.context);
            }
        } catch (IOException | RuntimeException e) {
            throw new ClusterError("cannot read kubeconfig"
                    + (options.kubeconfig == null ? "" : " " + options.kubeconfig) + ": " + e.getMessage());
        }
        options.namespaceOverride().ifPresent(config::setNamespace);
        if (config.getNamespace() == null) {
            config.setNamespace("default");
        }
        int millis = Math.max(1, options.requestTimeoutSeconds) * 1000;
        config.setRequestTimeout(millis);
        config.setConnectionTimeout(Math.min(millis, 10_000));
        config.setRequestRetryBackoffLimit(0);
        KubernetesClient client =
                new KubernetesClientBuilder().withConfig(config).build();
        try {
            client.getApiGroups(); // one cheap call, so an unreachable server is one clear error
        } catch (KubernetesClientException e) {
            if (e.getCode() <= 0) {
                client.close();
                throw new ClusterError(reason(e) + " at " + config.getMasterUrl());
            }
        }
        return client;
    }

    /** A one-line reason for a failed call. */
    static String reason(KubernetesClientException e) {
        if (e.getCode() == 403) {
            return "forbidden (403)";
        }
        if (e.getCode() == 401) {
            return "unauthorized (401): check the kubeconfig credentials";
        }
        if (e.getCode() == 404) {
            return "not found (404)";
        }
        if (e.getCode() <= 0) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            return "cannot reach the API server ("
                    + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage()) + ")";
        }
        return "HTTP " + e.getCode() + ": " + e.getMessage();
    }
}
