package dev.cartograph.broker;

import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;

/** The broker service: {@code deploy/bin/cartograph-broker} with {@code cartograph.broker.*} configuration. */
@OpenAPIDefinition(
        info =
                @Info(
                        title = "cartograph-broker",
                        version = "v1",
                        description =
                                "Cartograph broker: fleet state, federated workloads, placements, and dry-run planning"),
        security = @SecurityRequirement(name = "bearer"))
@SecurityScheme(
        name = "bearer",
        type = SecuritySchemeType.HTTP,
        scheme = "bearer",
        description = "a token the hub's TokenReview accepts (auth-mode hub), or one from the static token file "
                + "(auth-mode token-file); docs/api-access.md")
public final class BrokerApplication {
    private BrokerApplication() {}

    public static void main(String[] args) {
        Micronaut.run(BrokerApplication.class, args);
    }
}
