package dev.cartograph.agent.kafka;

import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.CommandResult;
import dev.cartograph.protocol.Decoded;
import dev.cartograph.protocol.Wire;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link CommandLoop} does with each record it reads, inside the record's own guard: a record that
 * cannot be decoded (a poison record) is counted, logged once with its offset, and skipped; a command whose
 * handling throws is answered {@code FAILED} and logged with MDC {@code cluster}/{@code kind}/{@code
 * namespace}/{@code name}; the result is made durable, or {@link NotDurable} says it was not. Records are
 * processed on the loop's thread only; the counters are thread-safe to read.
 */
final class CommandRecords {
    private static final Logger LOG = LoggerFactory.getLogger(CommandRecords.class);

    private final String cluster;
    private final Function<Command, CommandResult> handle;
    private final CommandLoop.Results results;
    private final Clock clock;
    private final AtomicLong poison = new AtomicLong();
    private final AtomicLong handled = new AtomicLong();

    CommandRecords(String cluster, Function<Command, CommandResult> handle, CommandLoop.Results results, Clock clock) {
        this.cluster = cluster;
        this.handle = handle;
        this.results = results;
        this.clock = clock;
    }

    long poison() {
        return poison.get();
    }

    long handled() {
        return handled.get();
    }

    /** Handles one record; throws {@link NotDurable} when its result did not reach Kafka. */
    void process(ConsumerRecord<String, byte[]> r) {
        Decoded<Command> decoded;
        try {
            decoded = r.value() == null
                    ? new Decoded.Failed<>("empty record (a tombstone is not a command)")
                    : Wire.decodeCommand(r.value());
        } catch (RuntimeException e) {
            decoded = new Decoded.Failed<>(e.toString());
        }
        if (decoded instanceof Decoded.Failed<Command> failed) {
            long n = poison.incrementAndGet();
            LOG.warn(
                    "skipping undecodable command at {}-{} offset {} ({} so far): {}",
                    r.topic(),
                    r.partition(),
                    r.offset(),
                    n,
                    failed.reason());
            return;
        }
        CommandResult result = guarded(((Decoded.Ok<Command>) decoded).value());
        try {
            results.durably(result);
        } catch (KafkaException e) {
            throw new NotDurable(e);
        }
        handled.incrementAndGet();
    }

    /** The command's result; a command whose handling throws is answered FAILED and logged, and the loop goes on. */
    private CommandResult guarded(Command command) {
        try (var ignored = CommandMdc.of(cluster, command)) {
            try {
                return handle.apply(command);
            } catch (RuntimeException e) {
                LOG.error(
                        "{} {} epoch {} could not be handled; answered FAILED",
                        verb(command),
                        command.placementId(),
                        command.epoch(),
                        e);
                return new CommandResult(
                        cluster,
                        command.placementId(),
                        command.epoch(),
                        verb(command),
                        CommandResult.Outcome.FAILED,
                        "the agent could not handle this command: " + e,
                        clock.instant());
            }
        }
    }

    private static String verb(Command command) {
        return command instanceof Command.Apply ? "apply" : "delete";
    }

    /** A result Kafka did not confirm: the command is handled again on a new consumer, the producer is replaced. */
    static final class NotDurable extends RuntimeException {
        NotDurable(KafkaException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
