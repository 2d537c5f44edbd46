package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.DemandCache.Asked.Gang;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.PlacementRecord.State;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.pcollections.TreePSet;
import org.pcollections.TreePVector;

/**
 * The queue: every queued placement in the order it is tried (priority, higher first; then
 * submission time; then uid), kept as the {@link PlacementStore}'s records change, so nothing scans every
 * placement to find them. Each queued placement is either <em>new</em> — it entered the queue (new,
 * taken back from a cluster, read back while another instance led, changed while it waited) and has
 * not been attempted since — or <em>waiting</em>, grouped by what it asked at its last attempt: the
 * same pods under the same cluster selector fit, or do not, on the same clusters, so one plan answers
 * for a whole group. Coordinator thread only.
 */
final class PlacementQueue {
    /** Where a queued placement stands in the queue; ordered by priority (higher first), submission time, uid. */
    record Key(int priority, Instant submitted, String uid) implements Comparable<Key> {
        static final Comparator<Key> ORDER = Comparator.comparingInt(Key::priority)
                .reversed()
                .thenComparing(Key::submitted)
                .thenComparing(Key::uid);

        static Key of(PlacementRecord p) {
            return new Key(p.priority(), p.submitted(), p.uid());
        }

        @Override
        public int compareTo(Key other) {
            return ORDER.compare(this, other);
        }
    }

    /**
     * What a waiting gang asks, in its queue (ADR 0006): gangs of one group fit, or do not, on the same clusters, since
     * they ask for the same pods under the same selector and the same queue's budget.
     */
    record Group(String queue, Gang ask) {}

    /* Persistent, so the published queue is shared as it is; a change costs O(log n), not a copy of the queue. */
    private TreePSet<Key> order = TreePSet.empty();
    private TreePVector<String> uids = TreePVector.empty();
    private final Map<String, Key> keys = new HashMap<>();
    private final Set<String> fresh = new LinkedHashSet<>();
    private final Map<String, Group> groupOf = new HashMap<>();
    /** Placed gangs whose change adds pods, for the next cycle to plan on their cluster (checked again then). */
    private final Set<String> resizes = new LinkedHashSet<>();
    /** Insertion-ordered, so a scheduling cycle tests the groups in a repeatable order. */
    private final Map<Group, NavigableSet<Key>> byGroup = new LinkedHashMap<>();

    /** A record was put in place of {@code before} (null: none), or removed ({@code after} null). */
    void changed(PlacementRecord before, PlacementRecord after) {
        boolean was = before != null && before.state() == State.QUEUED;
        boolean is = after != null && after.state() == State.QUEUED;
        if (was && is && Key.of(before).equals(Key.of(after))) {
            return;
        }
        if (was) {
            attempted(before.uid());
            Key key = keys.remove(before.uid());
            uids = uids.minus(order.headSet(key).size());
            order = order.minus(key);
        }
        if (is) {
            Key key = Key.of(after);
            keys.put(after.uid(), key);
            uids = uids.plus(order.headSet(key).size(), after.uid());
            order = order.plus(key);
            fresh.add(after.uid());
        }
    }

    /** PlacementQueue uids in order; immutable. */
    List<String> uids() {
        return uids;
    }

    /** The key of a queued placement (null when it is not queued). */
    Key key(String uid) {
        return keys.get(uid);
    }

    /** PlacementQueue placements not attempted since they entered the queue. */
    Set<String> fresh() {
        return Collections.unmodifiableSet(fresh);
    }

    /** An attempt is under way: it is neither new nor waiting until the attempt says which. */
    void attempted(String uid) {
        fresh.remove(uid);
        Group was = groupOf.remove(uid);
        if (was != null) {
            NavigableSet<Key> group = byGroup.get(was);
            group.remove(keys.get(uid));
            if (group.isEmpty()) {
                byGroup.remove(was);
            }
        }
    }

    /** Its attempt found no room: it waits in {@code group}. */
    void waits(String uid, Group group) {
        Key key = keys.get(uid);
        if (key == null) {
            return; // no longer queued (the attempt failed it, or it was written otherwise)
        }
        attempted(uid);
        groupOf.put(uid, group);
        byGroup.computeIfAbsent(group, a -> new TreeSet<>()).add(key);
    }

    /** To be attempted against the whole fleet at the next scheduling cycle, as new (e.g. its spec changed while it waited). */
    void enter(String uid) {
        if (keys.containsKey(uid) && !fresh.contains(uid)) {
            attempted(uid);
            fresh.add(uid);
        }
    }

    /** What a waiting placement asked at its last attempt. */
    Optional<Gang> askOf(String uid) {
        return groupOf(uid).map(Group::ask);
    }

    /** The group a waiting placement waits in. */
    Optional<Group> groupOf(String uid) {
        return Optional.ofNullable(groupOf.get(uid));
    }

    /** The distinct groups of the waiting placements. */
    Set<Group> groups() {
        return Collections.unmodifiableSet(byGroup.keySet());
    }

    /** The placements waiting in this group, in queue order (empty when none). */
    NavigableSet<Key> waiting(Group group) {
        NavigableSet<Key> keys = byGroup.get(group);
        return keys == null ? Collections.emptyNavigableSet() : Collections.unmodifiableNavigableSet(keys);
    }

    /**
     * A placed gang's change adds pods: the next scheduling cycle plans them on its cluster. Not undone with a batch:
     * the cycle reads the placement again and skips one whose change no longer stands.
     */
    void resize(String uid) {
        resizes.add(uid);
    }

    /** The gangs waiting to be resized, in the order they asked. */
    Set<String> resizes() {
        return Collections.unmodifiableSet(resizes);
    }

    /** The gangs waiting to be resized, taken: the cycle plans each once. */
    List<String> takeResizes() {
        List<String> out = List.copyOf(resizes);
        resizes.clear();
        return out;
    }
}
