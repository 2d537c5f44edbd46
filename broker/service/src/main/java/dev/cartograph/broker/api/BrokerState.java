package dev.cartograph.broker.api;

import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.interpreter.Definitions;
import java.time.Clock;

/** What the REST API reads of the broker it serves. Implementations are thread-safe. */
public interface BrokerState {

    /** The coordinator's latest published view. */
    BrokerView view();

    /** The catalog with the hub's Karta definitions over it, as the broker interprets now. */
    Definitions definitions();

    Clock clock();

    BrokerSettings settings();
}
