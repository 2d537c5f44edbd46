package dev.cartograph.broker.metrics;

import dev.cartograph.broker.coordinate.DecisionObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Placement attempts as metrics: a latency histogram ({@code cartograph_placement_decision_seconds}) and a counter
 * per outcome ({@code cartograph_placement_decisions_total{outcome}}). Every meter is made once, here, so an
 * attempt costs two clock reads, a histogram update and a counter increment, and allocates nothing. Thread-safe.
 */
public final class DecisionMetrics implements DecisionObserver {
    private final Timer latency;
    private final Counter[] byOutcome;

    public DecisionMetrics(MeterRegistry registry) {
        latency = Timer.builder("cartograph.placement.decision")
                .description("Time to decide one placement attempt: interpret, plan, write the record, forward")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
        Outcome[] outcomes = Outcome.values();
        byOutcome = new Counter[outcomes.length];
        for (Outcome o : outcomes) {
            byOutcome[o.ordinal()] = Counter.builder("cartograph.placement.decisions")
                    .description("Placement attempts by how they ended")
                    .tag("outcome", o.label())
                    .register(registry);
        }
    }

    @Override
    public long started() {
        return System.nanoTime();
    }

    @Override
    public void decided(Outcome outcome, long started) {
        latency.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        byOutcome[outcome.ordinal()].increment();
    }
}
