package dev.cartograph.broker.config;

import dev.cartograph.broker.BrokerRuntime;
import dev.cartograph.broker.coordinate.BrokerView;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.util.Map;
import org.reactivestreams.Publisher;

/** {@code /health}: up while ingest and the coordinator run; whether this replica leads and has caught up. A follower is UP. */
@Singleton
@io.micronaut.context.annotation.Requires(beans = BrokerRuntime.class)
public class BrokerHealth implements HealthIndicator {
    private final BrokerRuntime broker;

    public BrokerHealth(BrokerRuntime broker) {
        this.broker = broker;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        BrokerView v = broker.view();
        return Publishers.just(
                HealthResult.builder("cartograph-broker", broker.running() ? HealthStatus.UP : HealthStatus.DOWN)
                        .details(Map.of(
                                "watchingHub",
                                broker.watchingHub(),
                                "leading",
                                v.leading(),
                                "caughtUp",
                                v.caughtUp(),
                                "clusters",
                                v.fleet().clusters().size(),
                                "placements",
                                v.placements().size(),
                                "queued",
                                v.queue().size(),
                                "poisonRecords",
                                v.poisonRecords(),
                                "quarantined",
                                v.quarantined(),
                                "recoveredPlacements",
                                v.recovered(),
                                "placementsTopicLost",
                                v.placementsLost()))
                        .build());
    }
}
