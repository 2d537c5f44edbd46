package dev.cartograph.broker.hub;

import dev.cartograph.broker.coordinate.PriorityClasses;
import dev.cartograph.protocol.MetadataKeys;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub's PriorityClasses, from an informer's cache; none while they cannot be watched (queue priority
 * then comes from the annotation only). Thread-safe: start and close from one thread, read from any.
 */
final class PriorityClassWatch implements PriorityClasses {
    private static final Logger LOG = LoggerFactory.getLogger(PriorityClassWatch.class);

    private final KubernetesClient client;
    private volatile SharedIndexInformer<PriorityClass> informer;

    PriorityClassWatch(KubernetesClient client) {
        this.client = client;
    }

    /** Starts the informer unless it runs already; a hub that refuses is logged and tried again at the next call. */
    void start() {
        if (informer != null) {
            return;
        }
        try {
            informer = client.scheduling()
                    .v1()
                    .priorityClasses()
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(PriorityClass pc) {}

                                @Override
                                public void onUpdate(PriorityClass a, PriorityClass b) {}

                                @Override
                                public void onDelete(PriorityClass pc, boolean unknown) {}
                            },
                            0);
        } catch (RuntimeException e) {
            LOG.warn(
                    "cannot watch PriorityClasses on the hub ({}); queue priority comes from the {} annotation only",
                    e.getMessage(),
                    MetadataKeys.PRIORITY_ANNOTATION);
        }
    }

    @Override
    public Optional<Integer> value(String name) {
        SharedIndexInformer<PriorityClass> pcs = informer;
        return pcs == null
                ? Optional.empty()
                : pcs.getStore().list().stream()
                        .filter(pc -> name.equals(pc.getMetadata().getName()))
                        .findFirst()
                        .map(pc -> pc.getValue());
    }

    @Override
    public Optional<Integer> globalDefault() {
        SharedIndexInformer<PriorityClass> pcs = informer;
        return pcs == null
                ? Optional.empty()
                : pcs.getStore().list().stream()
                        .filter(pc -> Boolean.TRUE.equals(pc.getGlobalDefault()))
                        .findFirst()
                        .map(pc -> pc.getValue());
    }

    void close() {
        SharedIndexInformer<PriorityClass> pcs = informer;
        if (pcs != null) {
            pcs.close();
        }
    }
}
