package dev.cartograph.local.fault.history;

/**
 * A committed placement record (or tombstone) on {@code P.placements}, as a {@code read_committed} reader saw it.
 * Immutable.
 *
 * @param at        its Kafka timestamp (the broker's wall clock when it was written)
 * @param offset    its offset in its partition (records of one placement share a partition)
 * @param cluster   where it is placed; {@code ""} when nowhere
 * @param tombstone whether the placement was forgotten (epoch 0, state {@code ""})
 */
public record Durable(long at, long offset, String uid, long epoch, String cluster, String state, boolean tombstone) {}
