package dev.cartograph.mock.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cartograph.mock.rbac.RequestAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FaultsTest {
    private static final RequestAttributes GET_CM = RequestAttributes.of("GET", "/api/v1/namespaces/ml/configmaps/a");
    private static final RequestAttributes PUT_CM = RequestAttributes.of("PUT", "/api/v1/namespaces/ml/configmaps/a");

    private final MovableClock clock = new MovableClock();
    private final RecordingWatches watches = new RecordingWatches();
    private final Faults faults = new Faults(clock, watches);

    @Test
    void aRuleForTheNextNRequestsFiresOnThemThenIsGone() {
        ActiveFault throttle = faults.add(
                FaultRule.on(RequestMatch.verbs("get"), Fault.throttle(1)).forNext(2));

        assertThat(faults.fire(PUT_CM)).as("not matched: not counted").isEmpty();
        assertThat(faults.fire(GET_CM)).map(FaultRule::name).contains("throttle");
        assertThat(faults.fire(GET_CM)).isPresent();
        assertThat(faults.fire(GET_CM)).isEmpty();
        assertThat(throttle.fired()).isEqualTo(2);
        assertThat(throttle.isActive()).isFalse();
        assertThat(faults.active()).isEmpty();
    }

    @Test
    void aRuleForADurationFiresUntilItEndsByTheClock() {
        ActiveFault delay = faults.add(FaultRule.on(RequestMatch.any(), Fault.delay(Duration.ofMillis(5)))
                .forDuration(Duration.ofSeconds(10)));

        clock.advance(Duration.ofSeconds(9));
        assertThat(faults.fire(GET_CM)).isPresent();
        clock.advance(Duration.ofSeconds(1));
        assertThat(faults.fire(GET_CM)).isEmpty();
        assertThat(delay.fired()).isEqualTo(1);
    }

    @Test
    void theFirstRuleThatFiresAnswersAndRemovingOrClearingStopsThem() {
        ActiveFault first = faults.add(FaultRule.on(RequestMatch.verbs("update"), Fault.internalError("x"))
                .named("first"));
        faults.add(FaultRule.on(RequestMatch.any(), Fault.reset()).named("second"));

        assertThat(faults.fire(PUT_CM)).map(FaultRule::name).contains("first");
        assertThat(faults.fire(GET_CM)).map(FaultRule::name).contains("second");
        assertThat(faults.remove(first)).isTrue();
        assertThat(faults.fire(PUT_CM)).map(FaultRule::name).contains("second");
        faults.clear();
        assertThat(faults.fire(PUT_CM)).isEmpty();
        assertThat(first.isActive()).isFalse();
    }

    @Test
    void aProbabilityIsDrawnFromTheRulesOwnSeedSoARunRepeats() {
        List<Boolean> once = firings(new Faults(clock, watches), 42);
        List<Boolean> again = firings(new Faults(clock, watches), 42);

        assertThat(again).isEqualTo(once);
        // 200 draws at 0.5: far from none and from all (the binomial's 3-sigma range is 79..121)
        assertThat(once.stream().filter(b -> b).count()).isBetween(79L, 121L);
    }

    @Test
    void watchFaultsGoToTheWatches() {
        assertThat(faults.expireWatches(Pattern.compile("/api/v1/namespaces/ml/.*")))
                .isEqualTo(1);
        assertThat(watches.expired).containsExactly("/api/v1/namespaces/ml/configmaps");
        watches.newest = 17;
        assertThat(faults.compact()).isEqualTo(17);
        assertThatThrownBy(() -> faults.compactBefore(18)).hasMessageContaining("future");
    }

    private static List<Boolean> firings(Faults faults, long seed) {
        faults.add(FaultRule.on(RequestMatch.verbs("get"), Fault.throttle(1)).withProbability(0.5, seed));
        List<Boolean> fired = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            fired.add(faults.fire(GET_CM).isPresent());
        }
        return fired;
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static final class RecordingWatches implements WatchControl {
        final List<String> open = List.of("/api/v1/namespaces/ml/configmaps", "/api/v1/namespaces/other/configmaps");
        final List<String> expired = new ArrayList<>();
        long newest;

        @Override
        public int expire(Predicate<String> path) {
            open.stream().filter(path).forEach(expired::add);
            return expired.size();
        }

        @Override
        public long compactBefore(long resourceVersion) {
            if (resourceVersion > newest) {
                throw new IllegalArgumentException("a future revision");
            }
            return resourceVersion;
        }

        @Override
        public long newestResourceVersion() {
            return newest;
        }
    }
}
