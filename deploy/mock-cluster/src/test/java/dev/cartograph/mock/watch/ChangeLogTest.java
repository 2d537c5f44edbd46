package dev.cartograph.mock.watch;

import static org.assertj.core.api.Assertions.assertThat;

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
