package dev.cartograph.mock.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ChangeLogTest {
    @Test
    void aSubscriberFromAResourceVersionGetsTheRetainedChangesAfterItThenNewOnes() {
        ChangeLog log = new ChangeLog(10);
        log.append(created(1, "a"));
        log.append(created(2, "b"));
        log.append(created(3, "c"));
        List<Long> seen = new ArrayList<>();

        ChangeLog.Subscribed subscribed = log.subscribe(1, change -> seen.add(change.resourceVersion()));
        log.append(created(4, "d"));

        assertThat(subscribed).isInstanceOf(ChangeLog.Subscription.class);
        assertThat(seen).containsExactly(2L, 3L, 4L);
    }

    @Test
    void aSubscriberFromNowGetsOnlyNewChangesUntilItCloses() {
        ChangeLog log = new ChangeLog(10);
        log.append(created(1, "a"));
        List<Long> seen = new ArrayList<>();

        ChangeLog.Subscription subscription = log.subscribe(change -> seen.add(change.resourceVersion()));
        log.append(created(2, "b"));
        subscription.close();
        log.append(created(3, "c"));

        assertThat(seen).containsExactly(2L);
        assertThat(log.listenerCount()).isZero();
    }

    @Test
    void startingBeforeWhatIsRetainedIsExpired() {
        ChangeLog log = new ChangeLog(2);
        for (long rv = 1; rv <= 5; rv++) {
            log.append(created(rv, "o" + rv));
        }
        // retained: 4 and 5; changes after 3 are all there, changes after 2 are not (3 was evicted)
        assertThat(log.subscribe(3, change -> {})).isInstanceOf(ChangeLog.Subscription.class);
        assertThat(log.subscribe(2, change -> {})).isEqualTo(new ChangeLog.Expired(2, 3));
        assertThat(log.listenerCount()).isEqualTo(1);
    }

    @Test
    void aCompactionExpiresEveryStartBelowItAndNeverGoesBack() {
        ChangeLog log = new ChangeLog(10);
        for (long rv = 1; rv <= 5; rv++) {
            log.append(created(rv, "o" + rv));
        }

        assertThat(log.compactBefore(4)).isEqualTo(4);
        assertThat(log.subscribe(3, change -> {})).isEqualTo(new ChangeLog.Expired(3, 4));
        List<Long> seen = new ArrayList<>();
        assertThat(log.subscribe(4, change -> seen.add(change.resourceVersion())))
                .isInstanceOf(ChangeLog.Subscription.class);
        assertThat(seen).containsExactly(5L);
        assertThat(log.compactBefore(2))
                .as("a compaction point only moves forward")
                .isEqualTo(4);
        assertThat(log.newestResourceVersion()).isEqualTo(5);
        assertThat(log.history(5).changes()).extracting(Change::resourceVersion).containsExactly(5L);
        assertThat(log.history(5).startsAfter()).isEqualTo(4);
    }

    @Test
    void compactingAtTheNewestChangeLeavesOnlyWatchesFromNowAndTheFutureIsRefused() {
        ChangeLog log = new ChangeLog(10);
        log.append(created(1, "a"));
        log.append(created(2, "b"));

        assertThat(log.compactBefore(log.newestResourceVersion())).isEqualTo(2);
        assertThat(log.subscribe(2, change -> {})).isInstanceOf(ChangeLog.Subscription.class);
        assertThat(log.subscribe(1, change -> {})).isEqualTo(new ChangeLog.Expired(1, 2));
        assertThat(log.newestResourceVersion()).isEqualTo(2);
        assertThatThrownBy(() -> log.compactBefore(3)).hasMessageContaining("future revision");
    }

    @Test
    void theHistoryAsOfAResourceVersionLeavesOutLaterChanges() {
        ChangeLog log = new ChangeLog(10);
        for (long rv = 1; rv <= 4; rv++) {
            log.append(created(rv, "o" + rv));
        }

        assertThat(log.history(2).changes()).extracting(Change::resourceVersion).containsExactly(1L, 2L);
        assertThat(log.history(2).startsAfter()).isZero();
    }

    @Test
    void aListenerThatFailsIsDroppedAndTheOthersStillGetTheChange() {
        ChangeLog log = new ChangeLog(10);
        List<Long> seen = new ArrayList<>();
        log.subscribe(change -> {
            throw new IllegalStateException("closed");
        });
        log.subscribe(change -> seen.add(change.resourceVersion()));

        log.append(created(1, "a"));
        log.append(created(2, "b"));

        assertThat(seen).containsExactly(1L, 2L);
        assertThat(log.listenerCount()).isEqualTo(1);
    }

    private static Change created(long resourceVersion, String name) {
        return Change.created(
                resourceVersion,
                new Stored(
                        new AttributeSet(new Attribute("name", name)),
                        "{\"metadata\":{\"name\":\"" + name + "\",\"resourceVersion\":\"" + resourceVersion + "\"}}"));
    }
}
