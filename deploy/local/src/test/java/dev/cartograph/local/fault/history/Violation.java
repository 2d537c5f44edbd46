package dev.cartograph.local.fault.history;

/**
 * One breach of an invariant, at a moment of the history. Immutable.
 *
 * @param invariant {@code I1}…{@code I6}, as docs/reliability.md numbers them
 * @param at        wall-clock milliseconds
 */
public record Violation(String invariant, long at, String what) {
    @Override
    public String toString() {
        return invariant + " at " + java.time.Instant.ofEpochMilli(at) + ": " + what;
    }
}
