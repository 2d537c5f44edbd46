package dev.cartograph.broker.coordinate;

import dev.cartograph.broker.coordinate.PlacementState.Fenced;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.PlacementRecord;
import dev.cartograph.protocol.WorkloadKey;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes copies of a placement on clusters it is no longer placed on, at the placement's current
 * epoch (the agent refuses anything older). Each copy is fenced once per cluster and epoch; what is
 * remembered (in the placement's state) is dropped when the copy is reported gone or the placement is forgotten, so
 * it stays as large as the set of stale copies. Coordinator thread only.
 */
final class Fencing {
    private static final Logger LOG = LoggerFactory.getLogger(Fencing.class);

    private final PlacementStore store;
    private final Effects effects;
    private final Clock clock;

    Fencing(PlacementStore store, Effects effects, Clock clock) {
        this.store = store;
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
        Fenced fenced = new Fenced(cluster, epoch);
        boolean done = store.state(uid).filter(s -> s.fenced().contains(fenced)).isPresent();
        if (!done) {
            LOG.info(
                    "fencing {} on {}: placed {} (epoch {})",
                    uid,
                    cluster,
                    p.flatMap(PlacementRecord::cluster).orElse("nowhere"),
                    epoch);
            effects.command(cluster, new Command.Delete(uid, epoch, clock.instant(), copy));
            // remembered with the batch: undone with it when the Delete does not go out, so it is fenced again
            store.update(uid, s -> s.fencedAlso(fenced));
        }
    }

    /** The copy on {@code cluster} is gone: should one appear again, it is fenced again. */
    void copyGone(String uid, String cluster) {
        store.update(uid, s -> s.copyGoneFrom(cluster));
    }
}
