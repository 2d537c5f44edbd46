package dev.cartograph.broker;

import dev.cartograph.protocol.launch.ServiceCommandLine;
import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import java.util.List;

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
    private static final String USAGE = """
            The central broker. Configuration by environment (or -Dcartograph.broker.* properties, docs/operations.md):
              CARTOGRAPH_BROKER_BOOTSTRAP_SERVERS  Kafka bootstrap servers (other Kafka settings: CARTOGRAPH_BROKER_KAFKA_*)
              CARTOGRAPH_BROKER_KUBECONFIG         the hub's kubeconfig (default: in-cluster service account)
              CARTOGRAPH_BROKER_LEASE_NAMESPACE    namespace of the leader lease (several replicas)
              CARTOGRAPH_BROKER_POLICY             BIN_PACK (default) or SPREAD
              CARTOGRAPH_BROKER_AUTH_MODE          hub (TokenReview, default) or token-file (with _AUTH_TOKEN_FILE)
              CARTOGRAPH_BROKER_PORT               HTTP port of the REST API and /health (default 8080)
            Options: --help, --version; anything else starts the broker.""";

    private BrokerApplication() {}

    public static void main(String[] args) {
        var answer = new ServiceCommandLine("cartograph-broker", USAGE, BrokerApplication.class.getClassLoader())
                .answer(List.of(args));
        if (answer.isPresent()) {
            System.out.println(answer.get());
            return;
        }
        Micronaut.run(BrokerApplication.class, args);
    }
}
