package dev.cartograph.broker.coordinate;

import java.util.Locale;

/**
 * Told about every placement attempt the coordinator makes (a new gang, or a queued one tried again): how it ended
 * and how long it took. The coordinator calls it on its own thread once per attempt, so an implementation must be
 * cheap and must not block; it never changes what is decided. {@link #NONE} does nothing (tests, benchmarks).
 * The coordinator keeps no clock for this: {@link #started()} gives a mark that {@link #decided} measures from,
 * so an observer that measures nothing costs nothing.
 */
public interface DecisionObserver {

    /** How one attempt ended. */
    enum Outcome {
        /** placed on a cluster: the placement record is written and the apply is on its way */
        PLACED,
        /** fits nowhere now: queued with the reason */
        WAITING,
        /** waits for a ConfigMap, Secret or claim its pods need on the hub */
        WAITING_FOR_DEPENDENCY,
        /** its hub object is suspended: held, nothing reserved */
        SUSPENDED,
        /** cannot be placed as asked (no definition, invalid, too many pods): failed with the reason */
        FAILED;

        private final String label = name().toLowerCase(Locale.ROOT);

        /** The outcome as a metric label: {@code placed}, {@code waiting}, {@code waiting_for_dependency}, … */
        public String label() {
            return label;
        }
    }

    /** A mark taken when an attempt starts, handed back to {@link #decided}. */
    long started();

    /** An attempt that started at {@code started} ended with {@code outcome}. */
    void decided(Outcome outcome, long started);

    /** Observes nothing. */
    DecisionObserver NONE = new DecisionObserver() {
        @Override
        public long started() {
            return 0;
        }

        @Override
        public void decided(Outcome outcome, long started) {}
    };
}
