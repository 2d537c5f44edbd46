package dev.cartograph.broker.coordinate;

import dev.cartograph.fairshare.FairOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one retry attempts next (ADR 0006): per queue, the placements due, each with the group it waits in (empty for
 * one new to the queue), in queue order (priority, then submission time); across queues, the head of the queue with
 * the lowest weighted dominant share now ({@link FairOrder}), asked again before every attempt, since each placement
 * changes the shares. With one queue (no Queues on the hub) it is the queue order alone. Coordinator thread only.
 */
final class RetryOrder {
    private final FairShare fairShare;
    private final Map<String, TreeMap<PlacementQueue.Key, Optional<PlacementQueue.Group>>> lanes = new HashMap<>();

    RetryOrder(FairShare fairShare) {
        this.fairShare = fairShare;
    }

    /** Due in the retry: {@code key}'s placement, of {@code queue}, waiting in {@code group} (empty: new). */
    void put(String queue, PlacementQueue.Key key, Optional<PlacementQueue.Group> group) {
        lanes.computeIfAbsent(queue, q -> new TreeMap<>()).put(key, group);
    }

    boolean isEmpty() {
        return lanes.isEmpty();
    }

    /** The next placement to attempt, taken out; null when none is due. */
    Map.Entry<PlacementQueue.Key, Optional<PlacementQueue.Group>> poll() {
        if (lanes.isEmpty()) {
            return null;
        }
        String queue = lanes.size() == 1 ? lanes.keySet().iterator().next() : fairest();
        TreeMap<PlacementQueue.Key, Optional<PlacementQueue.Group>> lane = lanes.get(queue);
        Map.Entry<PlacementQueue.Key, Optional<PlacementQueue.Group>> next = lane.pollFirstEntry();
        if (lane.isEmpty()) {
            lanes.remove(queue);
        }
        return next;
    }

    /** The queue whose head goes next by fair share; the first by name should the tree not know one of them. */
    private String fairest() {
        Map<String, FairOrder.Head> heads = new HashMap<>();
        lanes.forEach((queue, lane) -> {
            PlacementQueue.Key first = lane.firstKey();
            heads.put(queue, new FairOrder.Head(first.priority(), first.submitted()));
        });
        return FairOrder.next(fairShare.tree(), fairShare.quotas(), heads)
                .filter(lanes::containsKey)
                .orElseGet(() -> new TreeMap<>(lanes).firstKey());
    }
}
