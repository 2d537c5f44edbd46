package dev.cartograph.local.fault.history;

/**
 * A committed command on a cluster's command topic. Immutable.
 *
 * @param at   its Kafka timestamp (the broker's wall clock when it was written)
 * @param kind {@code Apply} or {@code Delete}
 */
public record Sent(long at, String cluster, String uid, long epoch, String kind) {
    /** The epoch a stray copy is fenced at: above every epoch, decided by no record. */
    public static final long FENCE = Long.MAX_VALUE;
}
