package dev.cartograph.local.fault.history;

import java.util.Map;

/**
 * What the member clusters' own API servers held at one moment, as the recorder read them: per cluster that answered
 * (a cluster missing from a sample was not read, not empty), its placed copies and its nodes' GPUs. Immutable.
 *
 * @param at wall-clock milliseconds (one machine: the same clock as the Kafka records' timestamps)
 */
public record Sample(long at, Map<String, Member> clusters) {
    public Sample {
        clusters = Map.copyOf(clusters);
    }

    /** One member: its copies by placement id, and its nodes by name. */
    public record Member(Map<String, Copy> copies, Map<String, Node> nodes) {
        public Member {
            copies = Map.copyOf(copies);
            nodes = Map.copyOf(nodes);
        }
    }

    /**
     * A copy an agent created for a placement.
     *
     * @param uid     the copy object's own uid on the member: a copy deleted and made again has a new one
     * @param running whether some pod of it is bound to a node and not finished
     */
    public record Copy(String placementId, String uid, boolean running) {}

    /** A node's allocatable GPUs, and the GPUs its bound, unfinished pods ask for (every namespace). */
    public record Node(long gpus, long used) {}
}
