package dev.cartograph.broker.coordinate;

/**
 * Campaigns for the broker's leader lease and says when this instance gains or loses it; the coordinator
 * places and writes only while it leads ({@link Coordinator#leading(boolean, long)}). An implementation
 * campaigns on its own thread, for as long as it runs: after losing the lease it campaigns again. Start once, close once.
 */
public interface LeaderElection extends AutoCloseable {

    /** Starts campaigning and returns at once; {@code leading} hears every gain (with its term) and every loss. */
    void start(Leading leading);

    /**
     * Stops leading, if this instance leads, and gives the lease up so that another instance takes it in a newer term;
     * this one campaigns again later. For a leader that holds the lease but cannot act on it. Thread-safe.
     */
    void resign();

    /** Stops campaigning, giving the lease up if this instance holds it. */
    @Override
    void close();

    /** Told by an election: this instance leads now in leader term {@code term}, or no longer leads. */
    @FunctionalInterface
    interface Leading {
        void leading(boolean now, long term);
    }
}
