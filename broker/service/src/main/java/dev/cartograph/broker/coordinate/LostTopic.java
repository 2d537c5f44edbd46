package dev.cartograph.broker.coordinate;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The placements topic lost under this instance ({@link Input.PlacementsLost}): an alarm, not a fresh start. What it
 * holds of every placement is written again — now if it acts, else once it does — so the placements stay durable and
 * the next leader reads them instead of adopting every running gang. Coordinator thread only.
 */
final class LostTopic {
    private static final Logger LOG = LoggerFactory.getLogger(LostTopic.class);

    private final PlacementStore store;
    private final Effects effects;
    private long count;
    /** Lost while this instance stood by: it writes what it holds once it acts. */
    private boolean owed;

    LostTopic(PlacementStore store, Effects effects) {
        this.store = store;
        this.effects = effects;
    }

    /** The topic was found lost ({@code reason}); {@code active}: whether this instance acts now. */
    void lost(String reason, boolean active) {
        count++;
        owed = true;
        LOG.warn(
                "{}: {}",
                reason,
                active
                        ? "writing the " + store.placements().size() + " placement records this leader holds again"
                        : "this instance writes the placement records it holds again if it comes to lead");
        if (active) {
            rewrite();
        }
    }

    /** This instance acts now: what it owes is written. */
    void activated() {
        if (owed) {
            rewrite();
        }
    }

    /** Times the topic was found lost. */
    long count() {
        return count;
    }

    private void rewrite() {
        owed = false;
        effects.records(List.copyOf(store.placements()));
    }
}
