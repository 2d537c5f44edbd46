package dev.cartograph.broker.config;

import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.broker.metrics.DecisionMetrics;
import dev.cartograph.broker.metrics.UsageMetrics;
import dev.cartograph.broker.metrics.ViewMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/** Binds the broker's metrics to Micronaut's meter registry; nothing is bound when metrics are off. */
@Factory
@Requires(beans = MeterRegistry.class)
public class MetricsFactory {

    /** Told every placement attempt by the coordinator ({@code BrokerFactory} hands it to the runtime). */
    @Singleton
    DecisionMetrics decisions(MeterRegistry registry) {
        return new DecisionMetrics(registry);
    }

    /** Told the GPU time the leader counts ({@code BrokerFactory} hands it to the runtime). */
    @Singleton
    UsageMetrics usage(MeterRegistry registry) {
        return new UsageMetrics(registry);
    }

    @Singleton
    ViewMetrics view(MeterRegistry registry, BrokerRuntime broker) {
        return new ViewMetrics(registry, broker, broker::ingestLag);
    }
}
