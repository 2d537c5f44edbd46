package dev.cartograph.broker.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class DecisionCacheTest {
    final TestClock clock = new TestClock();

    @Test
    void keepsAnAnswerForItsTimeToLiveAndNotASecondLonger() {
        DecisionCache<String, String> cache = new DecisionCache<>(clock, Duration.ofSeconds(10), 100);
        cache.put("k", "v");
        clock.advance(Duration.ofMillis(9_999));
        assertThat(cache.get("k")).hasValue("v");
        clock.advance(Duration.ofMillis(1));
        assertThat(cache.get("k")).isEmpty();
        assertThat(cache.size()).isZero();
    }

    @Test
    void dropsTheLeastRecentlyUsedBeyondItsSize() {
        DecisionCache<String, String> cache = new DecisionCache<>(clock, Duration.ofSeconds(10), 2);
        cache.put("a", "1");
        cache.put("b", "2");
        cache.get("a"); // a is now more recent than b
        cache.put("c", "3");
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get("b")).isEmpty();
        assertThat(cache.get("a")).hasValue("1");
        assertThat(cache.get("c")).hasValue("3");
    }

    @Test
    void aZeroTimeToLiveKeepsNothing() {
        DecisionCache<String, String> cache = new DecisionCache<>(clock, Duration.ZERO, 2);
        cache.put("a", "1");
        assertThat(cache.get("a")).isEmpty();
    }
}
