package dev.cartograph.broker.api;

import dev.cartograph.broker.access.ApiResource;
import dev.cartograph.broker.coordinate.BrokerView;
import dev.cartograph.broker.settings.BrokerSettings;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.usage.Ledger;
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

    /**
     * GPU time per hour (ADR 0006): the leader's own count, or, on another instance, what the leader last wrote; throws
     * when neither can be read now.
     */
    default Ledger usage() throws Exception {
        return Ledger.empty();
    }

    /** The group and plural the hub serves {@code kind} of {@code apiVersion} as, if it does. */
    Optional<ApiResource> resource(String apiVersion, String kind);
}
