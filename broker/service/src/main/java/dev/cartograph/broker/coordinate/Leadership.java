package dev.cartograph.broker.coordinate;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When this broker instance may act: it leads (holds the Lease, or needs none), it has read every
 * topic to where it stood at start, and — in the current term — it has fenced every earlier writer
 * (the outbox makes their writes fail) and read everything committed up to then. Losing the lease
 * stops writes at once, from the lease thread; gaining it takes effect on the coordinator's thread,
 * in order. Fields are the coordinator thread's, except the two flags the lease thread sets.
 */
final class Leadership {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);
    private final Outbox outbox;
    private final Effects effects;
    private final Clock clock;
    private final Runnable becameActive;
    /** Whether this instance may write as leader now; set false by the lease thread at once, true only on the coordinator's thread. */
    private final AtomicBoolean leading;
    /** The lease's latest word, so that an older Leading input still in the inbox is not acted on. */
    private final AtomicBoolean wanted;

    private boolean caughtUp;
    private boolean activated;
    private long term;
    private long marks;
    private long markPending = -1;
    private LongConsumer catchUp = this::marked;
    /** Gives the lease up so that a newer term begins; without leader election, nothing (this instance leads alone). */
    private Runnable resign = () -> {};

    private final boolean leadsAlone;
    private Instant activeSince = Instant.MAX;
    /** The term this instance acts in, -1 while it does not: what its queued hub writes are checked against. */
    private final java.util.concurrent.atomic.AtomicLong actingTerm = new java.util.concurrent.atomic.AtomicLong(-1);

    /**
     * @param leadsAlone   true without leader election (this instance leads from the start)
     * @param becameActive what to do once active (hold recorded reservations, act on every hub object)
     */
    Leadership(boolean leadsAlone, Outbox outbox, Effects effects, Clock clock, Runnable becameActive) {
        this.leadsAlone = leadsAlone;
        this.outbox = outbox;
        this.effects = effects;
        this.clock = clock;
        this.becameActive = becameActive;
        this.leading = new AtomicBoolean(leadsAlone);
        this.wanted = new AtomicBoolean(leadsAlone);
    }

    /** From the lease thread: losing the lease stops writes now. Thread-safe. */
    void lease(boolean now) {
        wanted.set(now);
        if (!now) {
            leading.set(false);
            actingTerm.set(-1);
        }
    }

    void catchUpWith(LongConsumer mark) {
        this.catchUp = mark;
    }

    void resignWith(Runnable resign) {
        this.resign = resign;
    }

    boolean active() {
        return leading.get() && caughtUp && activated;
    }

    boolean leading() {
        return leading.get();
    }

    boolean caughtUp() {
        return caughtUp;
    }

    /** The term this instance acts in now, -1 while it does not act. Thread-safe. */
    long actingTerm() {
        return actingTerm.get();
    }

    /** When this instance last became active ({@link Instant#MAX} while it is not). */
    Instant activeSince() {
        return activeSince;
    }

    /** The Leading input, on the coordinator's thread. */
    void changed(boolean now, long newTerm) {
        if (now != wanted.get()) {
            return; // the lease changed again since: the newer input follows
        }
        leading.set(now);
        LOG.info(now ? "leading (term {})" : "not leading", newTerm);
        if (now) {
            term = newTerm;
            tryActivate();
        } else {
            stepDown();
        }
    }

    /** Every topic has been read to where it stood at start. */
    void caughtUpWithStart() {
        caughtUp = true;
        tryActivate();
    }

    /**
     * Leader and caught up since start: fence every earlier writer, then ask to have read everything
     * committed up to now; {@link #marked} makes this instance active. Tried again at every tick until
     * the outbox answers.
     */
    void tryActivate() {
        if (!leading.get() || !caughtUp || activated || markPending >= 0) {
            return;
        }
        try {
            outbox.activate(term);
        } catch (Exception e) {
            LOG.warn("cannot take the lead yet (term {}): {}; trying again", term, e.toString());
            return;
        }
        effects.term(term);
        markPending = ++marks;
        catchUp.accept(markPending);
    }

    void marked(long id) {
        if (id != markPending || !leading.get()) {
            return;
        }
        markPending = -1;
        activated = true;
        activeSince = clock.instant();
        actingTerm.set(term);
        LOG.info("active as leader of term {}: read every placement committed before", term);
        becameActive.run();
    }

    /**
     * A write was refused because this instance's producer was fenced. That happens when a newer leader took over, and
     * also when Kafka aborted a transaction that outlived its timeout (Kafka nodes slow or out of reach) and bumped the
     * producer's epoch: the outbox cannot tell the two apart, and the lease may still be this instance's. So it stops
     * acting and gives the lease up: a newer term begins, on whichever instance takes the lease — another, or this
     * one again after a while — and its activation fences every earlier writer. Leading alone (no election), it
     * activates again at the next tick, in the same term (nobody else writes).
     */
    void fenced() {
        stepDown();
        if (leadsAlone) {
            LOG.error("fenced: this instance's transaction was aborted by Kafka; it takes the lead again");
            return;
        }
        LOG.error("fenced: a newer leader took over, or Kafka aborted this instance's transaction; giving up the"
                + " lease so that a newer term begins");
        wanted.set(false);
        leading.set(false);
        resign.run();
    }

    private void stepDown() {
        actingTerm.set(-1);
        activated = false;
        markPending = -1;
        activeSince = Instant.MAX;
    }
}
