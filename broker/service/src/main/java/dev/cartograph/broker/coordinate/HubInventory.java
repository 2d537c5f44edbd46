package dev.cartograph.broker.coordinate;

import dev.cartograph.interpreter.kind.GroupVersionKind;
import dev.cartograph.protocol.PlacementRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What this instance knows of the hub as a whole: the kinds whose objects it has listed in full (their watches synced,
 * and the namespaces with them), so that an object it does not know of there is gone from the hub and not merely
 * unread. Only then is a copy no placement and no hub object claims a stray to fence, and a placement whose hub object
 * vanished while no leader acted (deleted before its finalizer landed) has its copy deleted: the placements missing
 * from two listings in a row ({@link #sweep}), so an object the watch is about to deliver is never taken for gone — the
 * garbage collection MultiKueue runs every minute. Coordinator thread only.
 */
final class HubInventory {
    /** Kinds as {@code group/Kind} ({@code /Kind} for the core group): what a member copy's key and a record share. */
    private Set<String> listed = Set.of();

    private Set<String> missingBefore = Set.of();

    /** The kind of a hub object or its copy, as listings name it. */
    static String kind(String group, String kind) {
        return group + "/" + kind;
    }

    static String kind(PlacementRecord.Target t) {
        return kind(GroupVersionKind.of(t.apiVersion(), t.kind()).group(), t.kind());
    }

    /** Whether every hub object of this kind is known to this instance now. */
    boolean listed(String kind) {
        return listed.contains(kind);
    }

    /**
     * The hub was listed again: {@code kinds} are those whose objects are all known now. Returns the placements whose
     * hub object was missing from this listing and the one before (of kinds listed both times).
     *
     * @param missing the placements of this instance's store whose hub object it does not know now
     */
    List<PlacementRecord> sweep(Set<String> kinds, List<PlacementRecord> missing) {
        listed = Set.copyOf(kinds);
        Set<String> now = new HashSet<>();
        List<PlacementRecord> gone = new java.util.ArrayList<>();
        for (PlacementRecord p : missing) {
            if (!listed(kind(p.target()))) {
                continue;
            }
            now.add(p.uid());
            if (missingBefore.contains(p.uid())) {
                gone.add(p);
            }
        }
        missingBefore = Set.copyOf(now);
        return gone;
    }
}
