package dev.cartograph.broker.coordinate;

import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.WorkloadKey;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes copies of a placement on clusters it is no longer placed on, at the placement's current
 * epoch (the agent refuses anything older). Each copy is fenced once per cluster and epoch; what is
 * remembered is dropped when the copy is reported gone or the placement is forgotten, so it stays as
 * large as the set of stale copies. Coordinator thread only.
 */
final class Fencing {
    private static final Logger LOG = LoggerFactory.getLogger(Fencing.class);

    /** One stale copy fenced: its cluster, placement and the epoch the Delete carried. */
    record Fenced(String cluster, String uid, long epoch) {}

    private final Effects effects;
    private final Clock clock;
    private final Map<String, Set<Fenced>> byUid = new HashMap<>();

    Fencing(Effects effects, Clock clock) {
        this.effects = effects;
        this.clock = clock;
    }

    /** A copy of {@code uid} (the object an agent reported), on a cluster where the placement (if any) does not live. */
    void fence(String uid, WorkloadKey copy, Optional<PlacementRecord> p) {
        String cluster = copy.cluster();
        if (!effects.active()) {
            return;
        }
        long epoch = p.map(PlacementRecord::epoch).orElse(Long.MAX_VALUE);
        Fenced fenced = new Fenced(cluster, uid, epoch);
        Set<Fenced> done = byUid.computeIfAbsent(uid, k -> new HashSet<>());
        if (!done.contains(fenced)) {
            LOG.info(
                    "fencing {} on {}: placed {} (epoch {})",
                    uid,
                    cluster,
                    p.flatMap(PlacementRecord::cluster).orElse("nowhere"),
                    epoch);
            if (effects.command(cluster, new Command.Delete(uid, epoch, clock.instant(), copy))) {
                done.add(fenced); // remembered only once durable: otherwise the copy's next report fences it again
            }
        }
    }

    /** The copy on {@code cluster} is gone: should one appear again, it is fenced again. */
    void copyGone(String uid, String cluster) {
        Set<Fenced> set = byUid.get(uid);
        if (set != null) {
            set.removeIf(f -> f.cluster().equals(cluster));
            if (set.isEmpty()) {
                byUid.remove(uid);
            }
        }
    }

    void forget(String uid) {
        byUid.remove(uid);
    }

    int size() {
        return byUid.values().stream().mapToInt(Set::size).sum();
    }
}
