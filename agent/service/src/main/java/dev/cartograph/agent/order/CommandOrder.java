package dev.cartograph.agent.order;

import dev.cartograph.protocol.Command;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the commands the broker sent since from commands read again (issue 33, finding 6): the command topic is
 * retention-deleted, not compacted, and an agent whose group lost its offsets reads it again from the start, so an
 * apply of a placement whose copy it deleted since would create the copy again. {@link #check} refuses such a command
 * ({@link Deletions#refusal}); {@link #remember} records a delete, durably on the member ({@link Store}), before the
 * agent carries it out. The agent's clock serves only to refuse commands past {@code maxAge} and to forget. Command
 * thread only; not thread-safe.
 */
public final class CommandOrder {
    private static final Logger LOG = LoggerFactory.getLogger(CommandOrder.class);

    /** Where the deletions are kept: on the member, so they outlive the agent's process and its Kafka offsets. */
    public interface Store {
        /** What is stored now ({@link Deletions#NONE} when nothing is). Throws {@link Unavailable} when it cannot say. */
        Deletions read();

        /**
         * Writes {@code change} of what is stored now, again over what is there when another writer came first;
         * returns what was written. Throws {@link Unavailable} when it could not write it.
         */
        Deletions update(UnaryOperator<Deletions> change);

        /** What it is, for messages: {@code ConfigMap cartograph-system/cartograph-agent-commands}. */
        String describe();
    }

    /** The store could not be read or written, for now or for good; the message says why, in the API server's words. */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What {@link #check} found. */
    public sealed interface Verdict {
        /** Not ordered before anything remembered: carry it out. */
        record InOrder() implements Verdict {}

        /** Refused: the reason says what it is ordered before. */
        record Stale(String reason) implements Verdict {}

        /** The deletions could not be read: nothing may be decided (the broker sends the command again). */
        record Unknown(String reason) implements Verdict {}
    }

    private final Store store;
    private final Deletions.Limits limits;
    private final Clock clock;
    /** What the store held after this agent's last read or write; empty until it could be read. */
    private Optional<Deletions> known = Optional.empty();

    public CommandOrder(Store store, Deletions.Limits limits, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether {@code command} may be carried out; the store is read the first time (and again until it can be). */
    public Verdict check(Command command) {
        Deletions deletions;
        try {
            deletions = known.orElseGet(store::read);
        } catch (Unavailable e) {
            return new Verdict.Unknown("nothing done: the deletes this agent carried out cannot be read from "
                    + store.describe() + ": " + e.getMessage() + "; asked again at the next command");
        }
        if (known.isEmpty()) {
            known = Optional.of(deletions);
            LOG.info(
                    "{} remembers {} deleted placements{}",
                    store.describe(),
                    deletions.last().size(),
                    deletions
                            .forgottenUpTo()
                            .map(f -> ", older deletes forgotten up to " + f)
                            .orElse(""));
        }
        return deletions
                .refusal(command, clock.instant(), limits)
                .<Verdict>map(Verdict.Stale::new)
                .orElseGet(Verdict.InOrder::new);
    }

    /**
     * Records that {@code delete} is being carried out, durably, before anything is deleted (so no crash can leave a
     * copy deleted and the delete forgotten). Empty once the store has it; otherwise why not, and nothing may be
     * deleted.
     */
    public Optional<String> remember(Command.Delete delete) {
        try {
            known = Optional.of(store.update(d -> d.with(delete, clock.instant(), limits)));
            return Optional.empty();
        } catch (Unavailable e) {
            return Optional.of("nothing deleted: the delete could not be recorded in " + store.describe() + " first: "
                    + e.getMessage());
        }
    }

    /** A store in this process's memory only: forgotten when it ends. For tests of what does not outlive a process. */
    public static Store inMemory() {
        return new Store() {
            private Deletions stored = Deletions.NONE;

            @Override
            public Deletions read() {
                return stored;
            }

            @Override
            public Deletions update(UnaryOperator<Deletions> change) {
                stored = change.apply(stored);
                return stored;
            }

            @Override
            public String describe() {
                return "this process's memory";
            }
        };
    }
}
