package dev.cartograph.agent.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cartograph.protocol.Command;
import dev.cartograph.protocol.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The order of one placement's commands and what an agent remembers of its deletes; every value by hand. */
@Timeout(10)
class DeletionsTest {
    static final Instant T = Instant.parse("2026-12-02T12:00:00Z");
    static final Deletions.Limits LIMITS = Deletions.Limits.DEFAULT; // 7 days, 5,000 placements

    static Command.Apply apply(String placement, long epoch, long term, Instant issued) {
        return new Command.Apply(
                placement,
                epoch,
                issued,
                JsonNodeFactory.instance.objectNode().put("kind", "Job"),
                java.util.List.of(),
                term);
    }

    static Command.Delete delete(String placement, long epoch, long term, Instant issued) {
        return new Command.Delete(
                placement, epoch, issued, new WorkloadKey("east", "ml", "batch", "Job", placement), term);
    }

    @Test
    void withinTheClockMarginTermThenEpochThenIssuedOrderCommandsAndBeyondItTheirTimes() {
        Stamp deleted = new Stamp(3, 1, T);
        // same leader, same epoch: the time decides
        assertThat(new Stamp(3, 1, T.minusSeconds(60)).before(deleted)).isTrue();
        assertThat(new Stamp(3, 1, T.plusSeconds(1)).before(deleted)).isFalse();
        assertThat(deleted.before(deleted)).as("equal stamps").isFalse();
        // a later leader whose clock is a minute behind: still after
        assertThat(new Stamp(4, 1, T.minusSeconds(60)).before(deleted)).isFalse();
        // an earlier leader whose clock ran a minute ahead: still before
        assertThat(new Stamp(2, 1, T.plusSeconds(60)).before(deleted)).isTrue();
        // same leader, a later epoch issued while its clock stepped back 30 s: after
        assertThat(new Stamp(3, 2, T.minusSeconds(30)).before(deleted)).isFalse();
        // more than 10 minutes apart the times decide, whatever the terms: a term that went back delays, no more
        assertThat(new Stamp(0, 1, T.plus(Duration.ofMinutes(10)).plusMillis(1)).before(deleted))
                .isFalse();
        assertThat(new Stamp(0, 1, T.plus(Duration.ofMinutes(10))).before(deleted))
                .isTrue();
        assertThat(new Stamp(9, 1, T.minus(Duration.ofMinutes(10)).minusMillis(1)).before(deleted))
                .isTrue();
    }

    @Test
    void anApplyOrderedBeforeTheLastDeleteOfItsPlacementIsRefusedAndOneAfterItIsNot() {
        Instant now = T.plusSeconds(300);
        Deletions d = Deletions.NONE.with(delete("p-1", 1, 0, T), now, LIMITS);

        assertThat(d.refusal(apply("p-1", 1, 0, T.minusSeconds(60)), now, LIMITS))
                .contains("placement p-1 was deleted here since, by the delete at epoch 1 of term 0 issued"
                        + " 2026-12-02T12:00:00Z; nothing is created");
        assertThat(d.refusal(apply("p-1", 1, 0, T.plusSeconds(60)), now, LIMITS))
                .as("taken back and placed again on this cluster at the same epoch")
                .isEmpty();
        assertThat(d.refusal(apply("p-1", 1, 1, T.minusSeconds(60)), now, LIMITS))
                .as("sent by the next leader, whose clock is behind")
                .isEmpty();
        assertThat(d.refusal(apply("p-2", 1, 0, T.minusSeconds(60)), now, LIMITS))
                .as("another placement")
                .isEmpty();
        assertThat(d.refusal(delete("p-1", 1, 0, T.minusSeconds(60)), now, LIMITS))
                .as("a delete read again deletes nothing more")
                .isEmpty();
    }

    @Test
    void aCommandIssuedLongerAgoThanTheMaxAgeIsRefusedWhateverIsRemembered() {
        Instant now = Instant.parse("2026-12-10T12:00:00Z");
        // 8 days and 1 hour before, over 7 days (168 hours)
        assertThat(Deletions.NONE.refusal(apply("p-1", 1, 0, Instant.parse("2026-12-02T11:00:00Z")), now, LIMITS))
                .contains("issued 2026-12-02T11:00:00Z, more than 168 hours (command-max-age) before it was read here"
                        + " at 2026-12-10T12:00:00Z: only a command read again (its offset lost) is read so late;"
                        + " nothing is done");
        assertThat(Deletions.NONE.refusal(delete("p-1", 1, 0, Instant.parse("2026-12-03T12:00:00Z")), now, LIMITS))
                .as("exactly 7 days")
                .isEmpty();
        assertThat(Deletions.NONE.refusal(delete("p-1", 1, 0, Instant.parse("2026-12-03T11:59:59Z")), now, LIMITS))
                .isPresent();
    }

    @Test
    void deletesPastTheMaxAgeAndTheMarginAreForgottenAndWhatIsIssuedUpToTheMarginAfterThemIsRefused() {
        Instant now = Instant.parse("2026-12-10T12:00:00Z");
        // cutoff: now - 7 days - 10 minutes = 2026-12-03T11:50:00Z
        Deletions d = new Deletions(
                        Map.of(
                                "p-old", new Stamp(0, 1, Instant.parse("2026-12-03T11:49:59Z")),
                                "p-kept", new Stamp(0, 1, Instant.parse("2026-12-03T11:50:00Z"))),
                        Optional.empty())
                .with(delete("p-new", 2, 0, now), now, LIMITS);

        assertThat(d.last()).containsOnlyKeys("p-kept", "p-new");
        assertThat(d.forgottenUpTo()).contains(Instant.parse("2026-12-03T11:49:59Z"));
        // a command issued up to 10 minutes after the newest delete forgotten may be ordered before it: refused; read
        // now, that is the max age's work already (issued before now - 7 days)
        assertThat(d.refusal(apply("p-x", 1, 0, Instant.parse("2026-12-03T11:59:59Z")), now, LIMITS))
                .hasValueSatisfying(r -> assertThat(r).contains("more than 168 hours (command-max-age)"));
        // read earlier (by an agent clock that ran ahead when it forgot, since set right): the forgotten deletes refuse
        // it
        Instant later = Instant.parse("2026-12-03T12:00:00Z");
        Deletions early = new Deletions(Map.of(), Optional.of(Instant.parse("2026-12-03T11:49:59Z")));
        assertThat(early.refusal(apply("p-x", 1, 0, later.minusSeconds(1)), later, LIMITS))
                .contains("issued 2026-12-03T11:59:59Z, not 10 minutes after the newest delete this agent no longer"
                        + " remembers (2026-12-03T11:49:59Z), so it cannot be told from a command read again: nothing"
                        + " is done");
        assertThat(early.refusal(apply("p-x", 1, 0, later), later, LIMITS)).isEmpty();
    }

    @Test
    void beyondMaxEntriesTheOldestAreForgottenFirst() {
        Deletions.Limits two = new Deletions.Limits(Duration.ofDays(7), 2);
        Deletions d = Deletions.NONE
                .with(delete("p-1", 1, 0, T), T, two)
                .with(delete("p-2", 1, 0, T.plusSeconds(1)), T, two)
                .with(delete("p-3", 1, 0, T.plusSeconds(2)), T, two);
        assertThat(d.last()).containsOnlyKeys("p-2", "p-3");
        assertThat(d.forgottenUpTo()).contains(T);
    }

    @Test
    void aDeleteReadAgainDoesNotReplaceALaterOne() {
        Deletions d = Deletions.NONE.with(delete("p-1", 2, 0, T), T, LIMITS);
        assertThat(d.with(delete("p-1", 1, 0, T.minusSeconds(60)), T, LIMITS).last())
                .containsExactly(Map.entry("p-1", new Stamp(0, 2, T)));
        assertThat(d.with(delete("p-1", 2, 1, T.plusSeconds(5)), T, LIMITS).last())
                .containsExactly(Map.entry("p-1", new Stamp(1, 2, T.plusSeconds(5))));
    }

    @Test
    void storedAsJsonAndReadBackAndABadRecordSaysWhatIsWrong() {
        Deletions d = new Deletions(
                Map.of("p-2", new Stamp(3, 2, T), "p-1", new Stamp(0, 1, T.plusNanos(1500))),
                Optional.of(Instant.parse("2026-11-25T00:00:00Z")));
        assertThat(d.json())
                .isEqualTo("{\"forgottenUpTo\":\"2026-11-25T00:00:00Z\",\"placements\":{"
                        + "\"p-1\":{\"term\":0,\"epoch\":1,\"issued\":\"2026-12-02T12:00:00.000001500Z\"},"
                        + "\"p-2\":{\"term\":3,\"epoch\":2,\"issued\":\"2026-12-02T12:00:00Z\"}}}");
        assertThat(Deletions.parse(d.json())).isEqualTo(d);
        assertThat(Deletions.parse(Deletions.NONE.json())).isEqualTo(Deletions.NONE);

        assertThatThrownBy(() -> Deletions.parse("[]")).hasMessage("no 'placements' object");
        assertThatThrownBy(() -> Deletions.parse("{\"placements\":{\"p-1\":{\"term\":\"x\",\"epoch\":1}}}"))
                .hasMessage("placements.p-1: term and epoch must be numbers");
        assertThatThrownBy(() ->
                        Deletions.parse("{\"placements\":{\"p-1\":{\"term\":1,\"epoch\":1,\"issued\":\"yesterday\"}}}"))
                .hasMessage("placements.p-1.issued is not an ISO-8601 instant: 'yesterday'");
    }

    @Test
    void aMaxAgeUnderAnHourIsRefused() {
        assertThatThrownBy(() -> new Deletions.Limits(Duration.ofMinutes(59), 10))
                .hasMessage("command-max-age must be at least PT1H, not PT59M: a shorter one refuses commands an agent"
                        + " merely read late");
    }
}
