package dev.cartograph.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.broker.coordinate.DecisionObserver.Outcome;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DecisionMetricsTest {

    @Test
    void countsEveryOutcomeFromZeroAndTimesEachAttempt() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DecisionMetrics metrics = new DecisionMetrics(registry);
        // every outcome exported before it happens, so a rate over it starts at 0
        for (Outcome o : Outcome.values()) {
            assertThat(registry.get("cartograph.placement.decisions")
                            .tag("outcome", o.label())
                            .counter()
                            .count())
                    .isZero();
        }
        metrics.decided(Outcome.PLACED, metrics.started());
        metrics.decided(Outcome.PLACED, metrics.started());
        metrics.decided(Outcome.WAITING, metrics.started());

        assertThat(registry.get("cartograph.placement.decisions")
                        .tag("outcome", "placed")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("cartograph.placement.decisions")
                        .tag("outcome", "waiting")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("cartograph.placement.decision").timer().count())
                .isEqualTo(3);
        assertThat(registry.get("cartograph.placement.decision").timer().totalTime(TimeUnit.NANOSECONDS))
                .isPositive();
        String text = registry.scrape();
        assertThat(text)
                .contains("# TYPE cartograph_placement_decision_seconds histogram")
                .contains("cartograph_placement_decision_seconds_bucket{le=\"+Inf\"} 3")
                .contains("cartograph_placement_decision_seconds_count 3")
                .contains("cartograph_placement_decisions_total{outcome=\"placed\"} 2.0")
                .contains("cartograph_placement_decisions_total{outcome=\"waiting_for_dependency\"} 0.0");
    }
}
