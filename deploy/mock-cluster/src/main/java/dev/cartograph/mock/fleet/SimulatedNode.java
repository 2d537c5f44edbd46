package dev.cartograph.mock.fleet;

/**
 * One node of a simulated cluster, named {@code CLUSTER-POOL-INDEX}. Immutable.
 *
 * @param usedGpus GPUs taken by the pre-existing pod on this node (0: no such pod)
 */
public record SimulatedNode(String name, NodePool pool, int index, int usedGpus) {

    public int freeGpus() {
        return pool.gpus() - usedGpus;
    }
}
