package dev.cartograph.broker.hub;

import dev.cartograph.fleet.FleetReport;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@code clusters.cartograph.dev} object per member cluster on the hub, so
 * {@code kubectl get clusters.cartograph.dev} shows readiness and GPUs (total, allocated, reserved,
 * free, largest block, per model). Writes only what changed (the heartbeat alone at most once a
 * minute). When the hub lacks the CRD it says so once and does nothing. Called from one thread.
 */
public final class ClusterObjects {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterObjects.class);
    public static final ResourceDefinitionContext CLUSTERS = new ResourceDefinitionContext.Builder()
            .withGroup("cartograph.dev")
            .withVersion("v1alpha1")
            .withKind("Cluster")
            .withPlural("clusters")
            .withNamespaced(false)
            .build();
    private static final Duration HEARTBEAT_EVERY = Duration.ofMinutes(1);

    private final KubernetesClient client;
    private final Map<String, Map<String, Object>> written = new HashMap<>();
    private final Map<String, Instant> writtenAt = new HashMap<>();
    private boolean missingCrdReported;

    ClusterObjects(KubernetesClient client) {
        this.client = client;
    }

    /** The status the Cluster object of one cluster shows. Pure. */
    public static Map<String, Object> status(FleetReport.ClusterReport c) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("ready", c.ready());
        status.put("nodes", c.nodes());
        long allocated = 0;
        long reserved = 0;
        long largest = 0;
        List<Map<String, Object>> models = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (FleetReport.ModelReport m : c.models()) {
            allocated += m.allocated();
            reserved += m.reserved();
            largest = Math.max(largest, m.largestFreeBlock());
            if (m.total() > 0) {
                names.add(m.model());
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("model", m.model());
            row.put("nodes", m.nodes());
            row.put("total", m.total());
            row.put("allocated", m.allocated());
            row.put("reserved", m.reserved());
            row.put("free", m.free());
            row.put("largestFreeBlock", m.largestFreeBlock());
            models.add(row);
        }
        Map<String, Object> gpus = new LinkedHashMap<>();
        gpus.put("total", c.total());
        gpus.put("allocated", allocated);
        gpus.put("reserved", reserved);
        gpus.put("free", c.free());
        gpus.put("largestFreeBlock", largest);
        status.put("gpus", gpus);
        status.put("gpuModels", models);
        status.put("gpuModelNames", String.join(",", names));
        status.put("pending", c.pending());
        return status;
    }

    public void sync(FleetReport report, Instant now) {
        for (FleetReport.ClusterReport c : report.clusters()) {
            Map<String, Object> status = status(c);
            Instant last = writtenAt.get(c.name());
            if (status.equals(written.get(c.name()))
                    && last != null
                    && Duration.between(last, now).compareTo(HEARTBEAT_EVERY) < 0) {
                continue;
            }
            Map<String, Object> withHeartbeat = new LinkedHashMap<>(status);
            withHeartbeat.put("heartbeat", c.heartbeat().toString());
            GenericKubernetesResource object = new GenericKubernetesResource();
            object.setApiVersion("cartograph.dev/v1alpha1");
            object.setKind("Cluster");
            object.setMetadata(new ObjectMetaBuilder()
                    .withName(c.name())
                    .withLabels(c.labels())
                    .addToLabels("app.kubernetes.io/managed-by", "cartograph-broker")
                    .build());
            object.setAdditionalProperty("status", withHeartbeat);
            try {
                GenericKubernetesResource current = client.genericKubernetesResources(CLUSTERS)
                        .withName(c.name())
                        .get();
                if (current == null) {
                    client.genericKubernetesResources(CLUSTERS).resource(object).create();
                } else {
                    current.setAdditionalProperty("status", withHeartbeat);
                    current.getMetadata().setLabels(object.getMetadata().getLabels());
                    client.genericKubernetesResources(CLUSTERS)
                            .resource(current)
                            .update();
                }
                written.put(c.name(), status);
                writtenAt.put(c.name(), now);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    if (!missingCrdReported) {
                        missingCrdReported = true;
                        LOG.info("the hub has no clusters.cartograph.dev CRD; install it (carto install crds) "
                                + "to see member clusters with kubectl");
                    }
                    return;
                }
                LOG.warn("could not write Cluster {} on the hub: {}", c.name(), e.getMessage());
            }
        }
    }
}
