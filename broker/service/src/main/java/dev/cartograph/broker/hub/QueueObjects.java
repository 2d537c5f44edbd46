package dev.cartograph.broker.hub;

import dev.cartograph.fairshare.QueueReport;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each hub Queue's {@code .status} (ADR 0006) from the broker's {@link QueueReport}, so {@code kubectl get
 * queues} shows nominal, in use, borrowed and waiting GPUs, and a Queue the broker could not take says why. Writes only
 * what changed, through the status subresource; the implicit {@code default} queue has no object and is not written.
 * Called from one thread.
 */
public final class QueueObjects {
    /** The hub's {@code queues.cartograph.dev} objects (cluster-scoped). */
    public static final ResourceDefinitionContext QUEUES = new ResourceDefinitionContext.Builder()
            .withGroup("cartograph.dev")
            .withVersion("v1alpha1")
            .withKind("Queue")
            .withPlural("queues")
            .withNamespaced(false)
            .build();

    private static final Logger LOG = LoggerFactory.getLogger(QueueObjects.class);

    private final KubernetesClient client;
    private final Map<String, Map<String, Object>> written = new HashMap<>();

    QueueObjects(KubernetesClient client) {
        this.client = client;
    }

    public void sync(QueueReport report) {
        for (QueueReport.Row q : report.queues()) {
            Map<String, Object> status = q.status();
            if (status.equals(written.get(q.name()))) {
                continue;
            }
            try {
                GenericKubernetesResource current = client.genericKubernetesResources(QUEUES)
                        .withName(q.name())
                        .get();
                if (current == null) {
                    continue; // the implicit default, or a Queue deleted since the report was made
                }
                current.setAdditionalProperty("status", status);
                client.genericKubernetesResources(QUEUES).resource(current).updateStatus();
                written.put(q.name(), status);
            } catch (KubernetesClientException e) {
                LOG.warn("could not write the status of Queue {} on the hub: {}", q.name(), e.getMessage());
            }
        }
        written.keySet()
                .retainAll(report.queues().stream().map(QueueReport.Row::name).toList());
    }
}
