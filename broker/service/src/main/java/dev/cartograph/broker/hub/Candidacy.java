package dev.cartograph.broker.hub;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When a broker replica that does not lead may take the leader Lease: pure, every time a monotonic reading in
 * nanoseconds passed in. As Kubernetes' own elector (client-go) judges it, and unlike fabric8's: a Lease held by another
 * has expired once this replica has seen it <em>unchanged</em> for its lease duration, measured on this replica's own
 * monotonic clock. The holder's {@code renewTime} is never compared with this machine's wall clock, so a replica whose
 * clock runs ahead does not take a live Lease, and a clock step changes nothing (issue 34). The price: a replica that
 * starts while the holder is gone waits one lease duration from its first look. Not thread-safe: the election's thread.
 */
final class Candidacy {
    /** What a candidate does next. */
    enum Move {
        /** there is no Lease: create it, holding it */
        CREATE,
        /** the Lease is free, expired, or left to this replica: take it in a new term */
        TAKE,
        /** another holds it and it is live: look again later */
        WAIT
    }

    /**
     * The Lease as read.
     *
     * @param holder          its holder's identity, empty when released
     * @param transitions     how often it changed hands: the leader term
     * @param resourceVersion the API server's version: any write changes it
     * @param duration        how long it lasts unrenewed, as its holder wrote it
     */
    record Seen(String holder, long transitions, String resourceVersion, Duration duration) {
        Seen {
            holder = holder == null ? "" : holder;
        }
    }

    private final String identity;
    private String lastVersion;
    private long unchangedSince;

    Candidacy(String identity) {
        this.identity = identity;
    }

    /** Decides from the Lease read at monotonic time {@code nanos} (empty: there is none). */
    Move next(Optional<Seen> lease, long nanos) {
        if (lease.isEmpty()) {
            lastVersion = null;
            return Move.CREATE;
        }
        Seen seen = lease.get();
        if (!Objects.equals(seen.resourceVersion(), lastVersion)) {
            lastVersion = seen.resourceVersion();
            unchangedSince = nanos;
        }
        if (seen.holder().isEmpty() || seen.holder().equals(identity)) {
            return Move.TAKE; // released, or ours from before (this replica stepped down since): a new term either way
        }
        return nanos - unchangedSince >= seen.duration().toNanos() ? Move.TAKE : Move.WAIT;
    }

    /** Forgets what was seen: the next look starts the wait afresh (after this replica led, or gave the Lease up). */
    void reset() {
        lastVersion = null;
    }
}
