package dev.cartograph.broker.api;

import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.interpreter.Definitions;
import java.time.Clock;
import java.util.Optional;

/** What the REST API reads of the broker it serves. Implementations are thread-safe. */
public interface BrokerState {

    /** The coordinator's latest published view. */
    BrokerView view();

    /** The catalog with the hub's Karta definitions over it, as the broker interprets now. */
    Definitions definitions();

    Clock clock();

    BrokerSettings settings();

    /** The group and plural the hub serves {@code kind} of {@code apiVersion} as, if it does. */
    Optional<ApiResource> resource(String apiVersion, String kind);
}
