package dev.cartograph.broker.kafka;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the ingest's decoding threads ({@link Shard}): what the polling thread read is decoded and handed to the
 * coordinator here, in the order it was read, so the consumer fetches the next records while the last ones are decoded (decoding, not
 * fetching, is most of the ingest's work). Steps run one at a time; one that fails is logged and the next runs.
 * A few steps wait at most: a full queue blocks the polling thread (back-pressure, as the coordinator's inbox
 * does). {@link #then} is called by one thread; thread-safe otherwise. Close once.
 */
final class Decoding implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Decoding.class);
    private static final int WAITING = 4;

    private final BlockingQueue<Runnable> steps = new ArrayBlockingQueue<>(WAITING);
    private volatile boolean open = true;
    private final Thread thread;

    Decoding(String name) {
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs {@code step} after every step handed over before it; blocks while {@value #WAITING} wait (not once closed). */
    void then(Runnable step) {
        try {
            while (open && !steps.offer(step, 200, TimeUnit.MILLISECONDS)) {
                // the decoding thread is behind (or the coordinator is): wait, unless closing
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (open) {
            try {
                Runnable step = steps.poll(200, TimeUnit.MILLISECONDS);
                if (step != null) {
                    step.run();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("ingest step failed; going on with the next", e);
            }
        }
    }

    /** Asks the thread to stop after the step running now (steps still waiting are dropped); does not wait. */
    void stop() {
        open = false;
        steps.offer(() -> {}); // wakes the thread if it waits for a step (not needed if the queue is full: it is busy)
    }

    /** Stops after the step running now; steps still waiting are dropped (the broker is closing). */
    @Override
    public void close() {
        stop();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
