package dev.cartograph.broker.hub;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.hub.Candidacy.Move;
import dev.cartograph.broker.hub.Candidacy.Seen;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CandidacyTest {
    private static final long S = 1_000_000_000L;

    private static Optional<Seen> heldBy(String holder, String version) {
        return Optional.of(new Seen(holder, 4, version, Duration.ofSeconds(15)));
    }

    @Test
    void noLeaseIsCreated() {
        assertThat(new Candidacy("b").next(Optional.empty(), 0)).isEqualTo(Move.CREATE);
    }

    @Test
    void aLeaseHeldByAnotherIsTakenOnlyOnceSeenUnchangedForItsDuration() {
        Candidacy c = new Candidacy("b");
        assertThat(c.next(heldBy("a", "10"), 100 * S)).isEqualTo(Move.WAIT);
        assertThat(c.next(heldBy("a", "10"), 114 * S)).isEqualTo(Move.WAIT);
        assertThat(c.next(heldBy("a", "10"), 115 * S)).isEqualTo(Move.TAKE);
    }

    @Test
    void aRenewalStartsTheWaitAgainWhateverTheRecordSaysOfTime() {
        // the holder's renewTime is never looked at: a renewal is a new resourceVersion, seen on this replica's clock
        Candidacy c = new Candidacy("b");
        c.next(heldBy("a", "10"), 0);
        assertThat(c.next(heldBy("a", "11"), 14 * S)).isEqualTo(Move.WAIT);
        assertThat(c.next(heldBy("a", "11"), 28 * S)).isEqualTo(Move.WAIT);
        assertThat(c.next(heldBy("a", "11"), 29 * S)).isEqualTo(Move.TAKE);
    }

    @Test
    void aReleasedLeaseOrOneLeftToThisReplicaIsTakenAtOnce() {
        assertThat(new Candidacy("b").next(heldBy("", "10"), 0)).isEqualTo(Move.TAKE);
        assertThat(new Candidacy("b").next(heldBy(null, "10"), 0)).isEqualTo(Move.TAKE);
        assertThat(new Candidacy("b").next(heldBy("b", "10"), 0)).isEqualTo(Move.TAKE);
    }

    @Test
    void theDurationIsTheOneTheHolderWrote() {
        Candidacy c = new Candidacy("b");
        Optional<Seen> short1 = Optional.of(new Seen("a", 0, "3", Duration.ofSeconds(1)));
        assertThat(c.next(short1, 0)).isEqualTo(Move.WAIT);
        assertThat(c.next(short1, S)).isEqualTo(Move.TAKE);
    }

    @Test
    void afterAResetTheWaitStartsAfresh() {
        Candidacy c = new Candidacy("b");
        c.next(heldBy("a", "10"), 0);
        c.reset();
        assertThat(c.next(heldBy("a", "10"), 20 * S)).isEqualTo(Move.WAIT);
        assertThat(c.next(heldBy("a", "10"), 35 * S)).isEqualTo(Move.TAKE);
    }
}
