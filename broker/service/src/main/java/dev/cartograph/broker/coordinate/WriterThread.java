package dev.cartograph.broker.coordinate;

import java.util.ConcurrentModificationException;

/**
 * The coordinator's one writer thread, enforced: the coordinator enters it for each batch and leaves it after, and
 * the single-writer state it guards fails fast when touched from any other thread, or between batches — as Kafka's
 * consumer refuses a second thread — instead of corrupting quietly. Thread-safe.
 */
final class WriterThread {
    private volatile Thread owner;

    /** The calling thread handles a batch now. */
    void enter() {
        Thread current = Thread.currentThread();
        Thread was = owner;
        if (was != null && was != current) {
            throw new ConcurrentModificationException("the coordinator is handling a batch on " + was.getName() + "; "
                    + current.getName() + " may not start another");
        }
        owner = current;
    }

    /** The batch is done. */
    void exit() {
        owner = null;
    }

    /** Fails unless called on the thread handling the current batch. */
    void check() {
        if (owner != Thread.currentThread()) {
            Thread was = owner;
            throw new ConcurrentModificationException("coordinator state is confined to the coordinator's thread; "
                    + Thread.currentThread().getName() + " touched it "
                    + (was == null ? "between batches" : "while " + was.getName() + " handles a batch"));
        }
    }
}
