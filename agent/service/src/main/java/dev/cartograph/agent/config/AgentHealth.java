package dev.cartograph.agent.config;

import dev.cartograph.agent.AgentRuntime;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.util.Map;
import org.reactivestreams.Publisher;

/** {@code /health}: up while commands are consumed and cluster summaries go out on time; {@code reason} says why not. */
@Singleton
@io.micronaut.context.annotation.Requires(beans = AgentRuntime.class)
public class AgentHealth implements HealthIndicator {
    private final AgentRuntime agent;

    public AgentHealth(AgentRuntime agent) {
        this.agent = agent;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        AgentRuntime.Health health = agent.health();
        return Publishers.just(
                HealthResult.builder("cartograph-agent", health.up() ? HealthStatus.UP : HealthStatus.DOWN)
                        .details(Map.of(
                                "incarnation",
                                agent.incarnation(),
                                "poisonCommands",
                                agent.poisonCommands(),
                                "commandKafkaFailures",
                                agent.commandKafkaFailures(),
                                "reason",
                                health.reason()))
                        .build());
    }
}
