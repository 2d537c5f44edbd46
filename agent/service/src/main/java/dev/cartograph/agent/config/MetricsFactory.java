package dev.cartograph.agent.config;

import dev.cartograph.agent.metrics.AgentMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/** Binds the agent's metrics to Micronaut's meter registry; nothing is bound when metrics are off. */
@Factory
@Requires(beans = MeterRegistry.class)
public class MetricsFactory {

    /** Handed to the runtime by {@code AgentFactory}, which also points it at the runtime's informers. */
    @Singleton
    AgentMetrics agentMetrics(MeterRegistry registry) {
        return new AgentMetrics(registry);
    }
}
