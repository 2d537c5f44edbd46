package dev.cartograph.broker.api;

import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.placement.Planner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A broker for the REST API's and the metrics' tests: the view and settings the test holds now, a clock fixed at
 * {@code now}, no definitions, no hub kinds. Thread-safe if the suppliers are.
 */
public final class StandInState implements BrokerState {
    private final Supplier<BrokerView> view;
    private final Supplier<BrokerSettings> settings;
    private final Instant now;

    public StandInState(Supplier<BrokerView> view, Supplier<BrokerSettings> settings, Instant now) {
        this.view = view;
        this.settings = settings;
        this.now = now;
    }

    /** Settings as a test broker has them: heartbeat timeout 30 s, the default limits and topology levels. */
    public static BrokerSettings defaultSettings() {
        return new BrokerSettings(
                "b",
                "cartograph",
                Map.of("bootstrap.servers", "unused:9092"),
                Duration.ofSeconds(30),
                Duration.ofMinutes(5),
                "cartograph.dev/federate=true",
                Planner.Policy.BIN_PACK,
                false,
                "",
                "cartograph-broker",
                Duration.ofMillis(250));
    }

    @Override
    public BrokerView view() {
        return view.get();
    }

    @Override
    public Definitions definitions() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Clock clock() {
        return Clock.fixed(now, ZoneOffset.UTC);
    }

    @Override
    public BrokerSettings settings() {
        return settings.get();
    }

    @Override
    public Optional<ApiResource> resource(String apiVersion, String kind) {
        return Optional.empty();
    }
}
