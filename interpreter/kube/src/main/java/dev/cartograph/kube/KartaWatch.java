package dev.cartograph.kube;

import dev.cartograph.interpreter.Definitions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a cluster's {@code kartas.run.ai} objects: whenever one is added, changed or removed (and
 * when the CRD itself appears), hands {@code onChange} the catalog with all of them over it. Without
 * the CRD it waits for it; a cluster that refuses the watch leaves the catalog alone (logged).
 * Callbacks come on informer threads. Start once, close once.
 */
public final class KartaWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KartaWatch.class);

    private final KubernetesClient client;
    private final Definitions catalog;
    private final Consumer<Definitions> onChange;
    private SharedIndexInformer<CustomResourceDefinition> crd;
    private volatile SharedIndexInformer<GenericKubernetesResource> kartas;
    private volatile Definitions current;

    private KartaWatch(KubernetesClient client, Definitions catalog, Consumer<Definitions> onChange) {
        this.client = client;
        this.catalog = catalog;
        this.onChange = onChange;
        this.current = catalog;
    }

    /** Starts watching; throws when the cluster cannot be reached at all. */
    public static KartaWatch start(KubernetesClient client, Definitions catalog, Consumer<Definitions> onChange) {
        KartaWatch w = new KartaWatch(client, catalog, onChange);
        w.crd = client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(Kartas.CRD_NAME)
                .inform(
                        new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(CustomResourceDefinition c) {
                                w.watchKartas();
                            }

                            @Override
                            public void onUpdate(CustomResourceDefinition a, CustomResourceDefinition b) {}

                            @Override
                            public void onDelete(CustomResourceDefinition c, boolean unknown) {}
                        },
                        0);
        return w;
    }

    /** The catalog with the cluster's Kartas over it, as of the last change. */
    public Definitions definitions() {
        return current;
    }

    private synchronized void watchKartas() {
        if (kartas != null) {
            return;
        }
        try {
            kartas = client.genericKubernetesResources(Kartas.KARTAS)
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(GenericKubernetesResource k) {
                                    changed();
                                }

                                @Override
                                public void onUpdate(GenericKubernetesResource a, GenericKubernetesResource b) {
                                    changed();
                                }

                                @Override
                                public void onDelete(GenericKubernetesResource k, boolean unknown) {
                                    changed();
                                }
                            },
                            0);
            changed();
        } catch (RuntimeException e) {
            LOG.warn("cannot watch {} ({}); definitions stay the built-in catalog", Kartas.CRD_NAME, e.getMessage());
        }
    }

    private synchronized void changed() {
        SharedIndexInformer<GenericKubernetesResource> k = kartas;
        if (k == null) {
            return;
        }
        current = Kartas.overlay(catalog, k.getStore().list());
        onChange.accept(current);
    }

    @Override
    public void close() {
        if (kartas != null) {
            kartas.close();
        }
        if (crd != null) {
            crd.close();
        }
    }
}
