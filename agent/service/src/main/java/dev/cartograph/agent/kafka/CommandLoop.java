package dev.cartograph.agent.kafka;

import dev.cartograph.agent.kafka.CommandRecords.NotDurable;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads this cluster's command topic on its own thread and hands each command to {@code handle}.
 * Nothing one record or one Kafka call does ends it:
 * <ul>
 * <li>each record is handled inside its own guard ({@link CommandRecords}): a record that cannot be
 *     decoded is counted, logged once with its offset, and skipped;</li>
 * <li>a command whose handling throws gets a {@code FAILED} result, logged with MDC
 *     {@code cluster}/{@code kind}/{@code namespace}/{@code name};</li>
 * <li>a failed Kafka call (poll, commit, the durable result) is logged and retried with backoff on a
 *     new consumer (and a new producer after a result that was not confirmed), which resumes from
 *     the last committed offset;</li>
 * <li>while the topic does not exist (the broker creates it) the loop waits with backoff and says so.</li>
 * </ul>
 * A command's offset is committed only after its result is durable, so a crash or a failure in
 * between delivers it again; the idempotent apply makes that harmless. Only an unrecoverable state
 * (Kafka refuses the agent's credentials or permissions, or its settings are invalid) ends the loop,
 * and {@link #status()} then says why. Thread-safe to start, read and stop from other threads.
 */
public final class CommandLoop implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommandLoop.class);
    private static final Duration POLL = Duration.ofMillis(500);
    /** A missing topic is checked for at least this often: a metadata request is cheap, and the first command waits on it. */
    private static final Duration TOPIC_CHECK_MAX = Duration.ofSeconds(2);

    /** Where results go. */
    public interface Results {
        /** Returns once Kafka has the result; throws a {@link KafkaException} otherwise. */
        void durably(CommandResult result);

        /** After a result that was not confirmed: start over with a new producer. */
        void reset();
    }

    /** What the loop is doing, since when, in words an operator can act on. Immutable. */
    public record Status(State state, String detail, Instant since) {
        public enum State {
            STARTING,
            WAITING_FOR_TOPIC,
            SERVING,
            RETRYING,
            STOPPED,
            FAILED
        }

        /** True once the loop no longer reads commands. */
        public boolean ended() {
            return state == State.STOPPED || state == State.FAILED;
        }
    }

    private final String cluster;
    private final Supplier<CommandSource> sources;
    private final Results results;
    private final CommandRecords handling;
    private final Backoff backoff;
    private final Clock clock;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong kafkaFailures = new AtomicLong();
    private volatile CommandSource current;
    private volatile Status status;
    private int failuresInARow; // loop thread only

    /**
     * @param sources opens a new consumer of the command topic; called again after every Kafka failure
     */
    public CommandLoop(
            String cluster,
            Supplier<CommandSource> sources,
            Results results,
            Function<Command, CommandResult> handle,
            Backoff backoff,
            Clock clock) {
        this.cluster = cluster;
        this.sources = sources;
        this.results = results;
        this.handling = new CommandRecords(cluster, handle, results, clock);
        this.backoff = backoff;
        this.clock = clock;
        this.status = new Status(Status.State.STARTING, "starting", clock.instant());
    }

    public long poisonRecords() {
        return handling.poison();
    }

    public long handledCommands() {
        return handling.handled();
    }

    /** Kafka failures survived so far. */
    public long kafkaFailures() {
        return kafkaFailures.get();
    }

    public Status status() {
        return status;
    }

    @Override
    public void run() {
        try {
            while (!isClosed() && attempt()) {
                // each attempt runs one consumer until it fails or the loop is closed
            }
            if (!status.ended()) {
                status(Status.State.STOPPED, "closed");
            }
        } catch (RuntimeException | Error e) {
            status(Status.State.FAILED, "stopped by an unexpected error: " + e);
            throw e;
        }
    }

    /** One consumer's life. False when the loop is to end. */
    private boolean attempt() {
        CommandSource source = null;
        try {
            source = sources.get();
            current = source;
            if (isClosed() || !awaitTopic(source)) {
                return false;
            }
            source.subscribe();
            serve(source);
            return false;
        } catch (WakeupException | InterruptException e) {
            return false; // closed (or interrupted): stop
        } catch (RuntimeException e) {
            return !isClosed() && survive(e);
        } finally {
            current = null;
            if (source != null) {
                closeQuietly(source);
            }
        }
    }

    private boolean awaitTopic(CommandSource source) {
        for (int n = 1; !source.topicExists(); n++) {
            Duration wait = min(backoff.after(n), TOPIC_CHECK_MAX);
            String detail = "command topic " + source.topic()
                    + " does not exist yet (the broker creates it); checking again in " + wait;
            status(Status.State.WAITING_FOR_TOPIC, detail);
            if (n == 1 || n % 10 == 0) {
                LOG.info("{} (check {})", detail, n);
            }
            if (pause(wait)) {
                return false;
            }
        }
        return true;
    }

    private void serve(CommandSource source) {
        if (failuresInARow == 0) { // else RETRYING says why until a command or an empty poll goes through
            status(Status.State.SERVING, "reading " + source.topic());
        }
        while (!isClosed()) {
            var records = source.poll(POLL);
            if (records.isEmpty()) {
                recovered(source); // the consumer works and nothing is pending
            }
            for (ConsumerRecord<String, byte[]> r : records) {
                if (isClosed()) {
                    return;
                }
                handling.process(r);
                source.commit(r);
                recovered(source);
            }
        }
    }

    private void recovered(CommandSource source) {
        if (failuresInARow > 0) {
            LOG.info(
                    "command loop for {} reads {} again after {} failed attempts",
                    cluster,
                    source.topic(),
                    failuresInARow);
            failuresInARow = 0;
            status(Status.State.SERVING, "reading " + source.topic());
        }
    }

    /** A Kafka failure: false when it cannot pass (then the status says why), else true after the backoff. */
    private boolean survive(RuntimeException e) {
        Throwable cause = e instanceof NotDurable ? e.getCause() : e;
        if (Refusals.replaced(cause)) {
            status(
                    Status.State.FAILED,
                    "stopped: another agent for " + cluster + " took its commands over (" + cause.getMessage() + ")");
            LOG.error("command loop for {} stopped: another agent for this cluster took its commands over", cluster);
            return false;
        }
        if (Refusals.unrecoverable(cause)) {
            status(Status.State.FAILED, "stopped: Kafka refuses this agent: " + cause);
            LOG.error("command loop for {} stopped, Kafka refuses this agent: {}", cluster, cause.toString());
            return false;
        }
        kafkaFailures.incrementAndGet();
        failuresInARow++;
        Duration wait = backoff.after(failuresInARow);
        String what = e instanceof NotDurable ? "a command result was not confirmed" : "a Kafka call failed";
        status(
                Status.State.RETRYING,
                what + " (" + cause + "); retrying in " + wait + " with a new consumer"
                        + (e instanceof NotDurable ? " and producer" : "") + ", " + failuresInARow + " in a row");
        LOG.warn(
                "command loop for {}: {} ({}); the command is read again from the last committed offset in {}",
                cluster,
                what,
                cause.toString(),
                wait);
        if (e instanceof NotDurable) {
            try {
                results.reset();
            } catch (RuntimeException resetFailed) {
                LOG.warn(
                        "could not replace the producer ({}); trying again after the next failure",
                        resetFailed.toString());
            }
        }
        return !pause(wait);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private void status(Status.State state, String detail) {
        status = new Status(state, detail, state == status.state() ? status.since() : clock.instant());
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    /** Waits, or less when closed; true when closed. */
    private boolean pause(Duration wait) {
        try {
            return closed.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static void closeQuietly(CommandSource source) {
        try {
            source.close();
        } catch (RuntimeException e) {
            LOG.debug("closing a failed consumer: {}", e.toString());
        }
    }

    @Override
    public void close() {
        closed.countDown();
        CommandSource source = current;
        if (source != null) {
            source.wakeup();
        }
    }
}
