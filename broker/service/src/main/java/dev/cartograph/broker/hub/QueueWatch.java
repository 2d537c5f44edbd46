package dev.cartograph.broker.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the hub's {@code queues.cartograph.dev} objects (ADR 0006): whenever one is added, changed or removed (and
 * when the CRD appears), posts every Queue as the hub has it to the coordinator as one {@link Input.Queues}, with the
 * namespaces' labels when some Queue selects namespaces by label (then a namespace's labels changing posts again).
 * Without the CRD it waits for it: without Queues the broker serves the fleet first come, first served. Informer
 * handlers only post. Thread-safe.
 */
final class QueueWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueueWatch.class);
    static final String CRD_NAME = "queues.cartograph.dev";

    private final KubernetesClient client;
    private final Consumer<Input> sink;
    private final Supplier<List<Namespace>> namespaces;
    private SharedIndexInformer<CustomResourceDefinition> crd;
    private volatile SharedIndexInformer<GenericKubernetesResource> queues;
    private volatile boolean selecting;

    /** @param namespaces the hub's namespaces as the broker's namespace informer has them */
    QueueWatch(KubernetesClient client, Consumer<Input> sink, Supplier<List<Namespace>> namespaces) {
        this.client = client;
        this.sink = sink;
        this.namespaces = namespaces;
    }

    /** Starts watching for the CRD, unless it is watched already; a hub that refuses is logged and tried again. */
    synchronized void start() {
        if (crd != null) {
            return;
        }
        try {
            crd = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(CRD_NAME)
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(CustomResourceDefinition c) {
                                    watchQueues();
                                }

                                @Override
                                public void onUpdate(CustomResourceDefinition a, CustomResourceDefinition b) {}

                                @Override
                                public void onDelete(CustomResourceDefinition c, boolean unknown) {}
                            },
                            0);
        } catch (RuntimeException e) {
            LOG.warn(
                    "cannot watch the {} CRD on the hub ({}); no queues: first come, first served",
                    CRD_NAME,
                    e.getMessage());
        }
    }

    private synchronized void watchQueues() {
        if (queues != null) {
            return;
        }
        try {
            queues = client.genericKubernetesResources(QueueObjects.QUEUES)
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(GenericKubernetesResource q) {
                                    changed();
                                }

                                @Override
                                public void onUpdate(GenericKubernetesResource a, GenericKubernetesResource b) {
                                    if (!java.util.Objects.equals(
                                            a.getAdditionalProperties().get("spec"),
                                            b.getAdditionalProperties().get("spec"))) {
                                        changed(); // the broker's own status writes change nothing it reads
                                    }
                                }

                                @Override
                                public void onDelete(GenericKubernetesResource q, boolean unknown) {
                                    changed();
                                }
                            },
                            0);
            LOG.info("watching {} on the hub", CRD_NAME);
            changed();
        } catch (RuntimeException e) {
            LOG.warn("cannot watch {} on the hub ({}); no queues: first come, first served", CRD_NAME, e.getMessage());
        }
    }

    /** A namespace was added, changed or removed: posted again only when some Queue selects namespaces by label. */
    void namespaceChanged() {
        if (selecting) {
            changed();
        }
    }

    private synchronized void changed() {
        SharedIndexInformer<GenericKubernetesResource> q = queues;
        if (q == null) {
            return;
        }
        try {
            List<JsonNode> read = new ArrayList<>();
            boolean bySelector = false;
            for (GenericKubernetesResource queue : q.getStore().list()) {
                JsonNode json = Documents.json().valueToTree(queue);
                bySelector |= json.path("spec").has("namespaceSelector");
                read.add(json);
            }
            selecting = bySelector;
            Map<String, Map<String, String>> labels = new TreeMap<>();
            if (bySelector) {
                for (Namespace ns : namespaces.get()) {
                    Map<String, String> l = ns.getMetadata().getLabels();
                    labels.put(ns.getMetadata().getName(), l == null ? Map.of() : Map.copyOf(l));
                }
            }
            sink.accept(new Input.Queues(read, labels));
        } catch (RuntimeException e) {
            LOG.warn("could not read the hub's Queues: {}", e.toString());
        }
    }

    @Override
    public synchronized void close() {
        if (queues != null) {
            queues.close();
        }
        if (crd != null) {
            crd.close();
        }
    }
}
