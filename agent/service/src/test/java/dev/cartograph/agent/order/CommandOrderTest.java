package dev.cartograph.agent.order;

import static dev.cartograph.agent.order.DeletionsTest.apply;
import static dev.cartograph.agent.order.DeletionsTest.delete;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's check of each command against the deletes it remembers, over a store that can fail: what cannot be read
 * decides nothing, and a delete that could not be recorded first is not carried out.
 */
@Timeout(10)
class CommandOrderTest {
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(T.plusSeconds(60), ZoneOffset.UTC);

    /** A store in memory that fails while {@code failing} is set, and counts its reads. */
    static final class Flaky implements CommandOrder.Store {
        final CommandOrder.Store memory = CommandOrder.inMemory();
        final AtomicInteger reads = new AtomicInteger();
        boolean failing;

        @Override
        public Deletions read() {
            reads.incrementAndGet();
            fail();
            return memory.read();
        }

        @Override
        public Deletions update(UnaryOperator<Deletions> change) {
            fail();
            return memory.update(change);
        }

        @Override
        public String describe() {
            return "the test's store";
        }

        private void fail() {
            if (failing) {
                throw new CommandOrder.Unavailable("not read: the API server answered 503 ServiceUnavailable", null);
            }
        }
    }

    @Test
    void aStoreThatCannotBeReadDecidesNothingAndIsAskedAgainUntilItCan() {
        Flaky store = new Flaky();
        CommandOrder order = new CommandOrder(store, Deletions.Limits.DEFAULT, CLOCK);
        store.failing = true;
        assertThat(order.check(apply("p-1", 1, 0, T)))
                .isEqualTo(new CommandOrder.Verdict.Unknown("nothing done: the deletes this agent carried out cannot be"
                        + " read from the test's store: not read: the API server answered 503 ServiceUnavailable;"
                        + " asked again at the next command"));
        store.failing = false;
        assertThat(order.check(apply("p-1", 1, 0, T))).isEqualTo(new CommandOrder.Verdict.InOrder());
        assertThat(order.check(apply("p-2", 1, 0, T))).isEqualTo(new CommandOrder.Verdict.InOrder());
        assertThat(store.reads).as("read until it could be, then kept").hasValue(2);
    }

    @Test
    void aDeleteRecordedRefusesTheApplyBeforeItAndOneNotRecordedSaysWhy() {
        Flaky store = new Flaky();
        CommandOrder order = new CommandOrder(store, Deletions.Limits.DEFAULT, CLOCK);
        store.failing = true;
        assertThat(order.remember(delete("p-1", 1, 0, T)))
                .contains("nothing deleted: the delete could not be recorded in the test's store first: not read: the"
                        + " API server answered 503 ServiceUnavailable");
        store.failing = false;
        assertThat(order.check(apply("p-1", 1, 0, T.minusSeconds(1)))).isEqualTo(new CommandOrder.Verdict.InOrder());

        assertThat(order.remember(delete("p-1", 1, 0, T))).isEmpty();
        assertThat(order.check(apply("p-1", 1, 0, T.minusSeconds(1))))
                .isEqualTo(new CommandOrder.Verdict.Stale("placement p-1 was deleted here since, by the delete at epoch"
                        + " 1 of term 0 issued 2026-12-02T12:00:00Z; nothing is created"));
        // another process reading the same store knows it too
        assertThat(new CommandOrder(store, Deletions.Limits.DEFAULT, CLOCK)
                        .check(apply("p-1", 1, 0, T.minusSeconds(1))))
                .isInstanceOf(CommandOrder.Verdict.Stale.class);
    }
}
