package dev.cartograph.simulator.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a workload's {@code .status} through the status subresource ({@code updateStatus}, a
 * PUT of the whole status, which the fabric8 CRUD mock supports). Should the server refuse the
 * subresource (404/405 with the object present), falls back to a full update carrying the status.
 * A conflict (409) is left to the next pass. Thread-safe as the client is.
 */
final class StatusWriter {
    private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);

    private final KubernetesClient client;
    private final KubernetesSerialization serialization;

    StatusWriter(KubernetesClient client) {
        this.client = client;
        this.serialization = client.getKubernetesSerialization();
    }

    void write(ServedKind kind, GenericKubernetesResource workload, JsonNode status) {
        GenericKubernetesResource copy = serialization.clone(workload);
        copy.setAdditionalProperty("status", serialization.convertValue(status, Object.class));
        var resource = client.genericKubernetesResources(kind.context())
                .inNamespace(copy.getMetadata().getNamespace())
                .resource(copy);
        try {
            resource.updateStatus();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND && e.getCode() != HttpURLConnection.HTTP_BAD_METHOD) {
                throw e;
            }
            LOG.debug("status subresource refused ({}), writing status with a full update", e.getCode());
            resource.update();
        }
    }
}
