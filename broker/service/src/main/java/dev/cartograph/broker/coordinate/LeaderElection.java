package dev.cartograph.broker.coordinate;

/**
 * Campaigns for the broker's leader lease and says when this instance gains or loses it; the coordinator
 * places and writes only while it leads ({@link Coordinator#leading(boolean, long)}). An implementation
 * campaigns on its own thread. Start once, close once.
 */
public interface LeaderElection extends AutoCloseable {

    /** Starts campaigning and returns at once; {@code leading} hears every gain (with its term) and every loss. */
    void start(Leading leading);

    /** Stops campaigning, giving the lease up if this instance holds it. */
    @Override
    void close();

    /** Told by an election: this instance leads now in leader term {@code term}, or no longer leads. */
    @FunctionalInterface
    interface Leading {
        void leading(boolean now, long term);
    }
}
