package dev.cartograph.agent.order;

import dev.cartograph.protocol.Command;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where a command stands in the broker's order of one placement's commands: the leader {@code term} of the broker
 * that wrote it, the placement's {@code epoch}, and when it was {@code issued} by that broker's clock. Immutable.
 *
 * <p>Why the clock comes first and the term only within {@link #CLOCK_MARGIN}: brokers' clocks are never exactly
 * alike, so within the margin a later leader's command may carry an earlier time, and there the term (then the epoch,
 * then the time) orders them. Beyond it the clock alone decides, so a term that went back (the hub Lease recreated, or
 * its transitions unreadable when a leader took over, which the broker then writes as 0) delays a new command by at
 * most the margin instead of refusing it until its placement is forgotten.
 */
public record Stamp(long term, long epoch, Instant issued) {
    /**
     * How far apart the clocks of the brokers that lead in turn may be, and how far one may step back: 10 minutes.
     * Commands issued further apart than this are ordered by their times alone.
     */
    public static final Duration CLOCK_MARGIN = Duration.ofMinutes(10);

    private static final Comparator<Stamp> WITHIN_MARGIN = Comparator.comparingLong(Stamp::term)
            .thenComparingLong(Stamp::epoch)
            .thenComparing(Stamp::issued);

    public Stamp {
        Objects.requireNonNull(issued, "issued");
    }

    /** The stamp of a command as the broker wrote it. */
    public static Stamp of(Command command) {
        return new Stamp(command.term(), command.epoch(), command.issued());
    }

    /**
     * True when a command stamped so was written before one stamped {@code other}: issued more than the margin
     * earlier, or, within the margin, of an earlier (term, epoch, issued). Equal stamps are not before each other.
     */
    public boolean before(Stamp other) {
        if (issued.plus(CLOCK_MARGIN).isBefore(other.issued)) {
            return true;
        }
        if (issued.isAfter(other.issued.plus(CLOCK_MARGIN))) {
            return false;
        }
        return WITHIN_MARGIN.compare(this, other) < 0;
    }

    /** {@code the delete at epoch 1 of term 3 issued 2026-12-02T12:00:00Z}, with {@code what} for "delete". */
    String describe(String what) {
        return "the " + what + " at epoch " + epoch + " of term " + term + " issued " + issued;
    }
}
