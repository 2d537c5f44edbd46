package dev.cartograph.broker;

import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;

/** The broker service: {@code deploy/bin/cartograph-broker} with {@code cartograph.broker.*} configuration. */
@OpenAPIDefinition(
        info =
                @Info(
                        title = "cartograph-broker",
                        version = "v1",
                        description =
                                "Cartograph broker: fleet state, federated workloads, placements, and dry-run planning"))
public final class BrokerApplication {
    private BrokerApplication() {}

    public static void main(String[] args) {
        Micronaut.run(BrokerApplication.class, args);
    }
}
