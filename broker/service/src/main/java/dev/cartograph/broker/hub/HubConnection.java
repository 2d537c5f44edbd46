package dev.cartograph.broker.hub;

import dev.cartograph.broker.coordinate.Input;
import dev.cartograph.broker.coordinate.LeaderElection;
import dev.cartograph.interpreter.Definitions;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Consumer;

/**
 * The broker's way to its hub cluster: builds every hub adapter over one client, which the caller owns
 * and closes after the adapters. Holds nothing else; thread-safe.
 */
public final class HubConnection {
    private final KubernetesClient client;

    public HubConnection(KubernetesClient client) {
        this.client = client;
    }

    /** The hub's address, for logs. */
    public String url() {
        return String.valueOf(client.getMasterUrl());
    }

    /** A watch of the hub's objects labelled {@code labelKey=labelValue} (or in such a namespace), handed to {@code sink}; not started. */
    public HubWatch watch(Definitions definitions, String labelKey, String labelValue, Consumer<Input> sink) {
        return new HubWatch(client, definitions, labelKey, labelValue, sink);
    }

    /**
     * Writes the coordinator's marks, finalizers, statuses and Events on the objects {@code watch} found; Events carry
     * {@code clock}'s time.
     */
    public KubeHub hub(HubWatch watch, java.time.Clock clock) {
        return new KubeHub(client, watch, clock);
    }

    /** Keeps the hub's cluster objects in step with the fleet. */
    public ClusterObjects clusterObjects() {
        return new ClusterObjects(client);
    }

    /** Keeps the hub's Queue objects' status in step with the broker's queues. */
    public QueueObjects queueObjects() {
        return new QueueObjects(client);
    }

    /** Leader election on the Lease {@code namespace/name} on the hub, as {@code identity}; not started. */
    public LeaderElection election(String namespace, String name, String identity) {
        return new LeaseElection(client, namespace, name, identity);
    }
}
