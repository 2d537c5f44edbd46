package dev.cartograph.kafka.local;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How a secure node listens (the server side of {@link SecureClients}): TLS on every listener, with
 * <ul>
 *   <li>{@code SASL_SSL} on the client port: SCRAM-SHA-512 users, no client certificate asked;
 *   <li>{@code SSL} on {@code sslPort}: mutual TLS, a client certificate is required and its
 *       {@code CN} is the principal ({@code CN=agent-a} is {@code User:agent-a});
 *   <li>{@code CONTROLLER}: mutual TLS too; the node talks to itself as {@code User:kafka-broker}.
 * </ul>
 * Kafka's {@code StandardAuthorizer} decides, denying whatever no ACL allows; the super users are
 * the node itself and the administrator. Immutable.
 *
 * @param sslPort    the mutual-TLS client port
 * @param keyStore   the node's key store (certificate {@code CN=kafka-broker}, SAN 127.0.0.1 and localhost)
 * @param trustStore the CA every client certificate must chain to
 * @param password   of both stores (PKCS12)
 * @param superUsers principals allowed everything, e.g. {@code User:admin}
 */
record SecureListeners(int sslPort, Path keyStore, Path trustStore, String password, List<String> superUsers) {

    /** The listener name (and protocol) of the SCRAM client port. */
    static final String SASL_SSL = "SASL_SSL";
    /** The listener name (and protocol) of the mutual-TLS client port. */
    static final String SSL = "SSL";
    /** The SASL mechanism of the SCRAM listener. */
    static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
    /** The principal of a certificate is its CN; a name without a CN keeps Kafka's default (the whole DN). */
    static final String PRINCIPAL_MAPPING_RULES = "RULE:^CN=([^,]+)(,.*)?$/$1/,DEFAULT";

    SecureListeners {
        superUsers = List.copyOf(superUsers);
    }

    /** What replaces a plaintext node's listener settings; {@code port} is the SCRAM client port. */
    Map<String, String> serverProperties(String host, int port, int controllerPort) {
        Map<String, String> p = new HashMap<>();
        p.put(
                "listeners",
                SASL_SSL + "://" + host + ":" + port + "," + SSL + "://" + host + ":" + sslPort + ",CONTROLLER://"
                        + host + ":" + controllerPort);
        p.put("advertised.listeners", SASL_SSL + "://" + host + ":" + port + "," + SSL + "://" + host + ":" + sslPort);
        p.put("listener.security.protocol.map", SASL_SSL + ":SASL_SSL," + SSL + ":SSL,CONTROLLER:SSL");
        p.put("inter.broker.listener.name", SSL);

        p.put("ssl.keystore.location", keyStore.toString());
        p.put("ssl.keystore.type", "PKCS12");
        p.put("ssl.keystore.password", password);
        p.put("ssl.key.password", password);
        p.put("ssl.truststore.location", trustStore.toString());
        p.put("ssl.truststore.type", "PKCS12");
        p.put("ssl.truststore.password", password);
        // mutual TLS everywhere except the SCRAM listener, where the password is the proof
        p.put("ssl.client.auth", "required");
        p.put("listener.name.sasl_ssl.ssl.client.auth", "none");
        p.put("ssl.principal.mapping.rules", PRINCIPAL_MAPPING_RULES);

        p.put("sasl.enabled.mechanisms", SCRAM_MECHANISM);
        p.put("listener.name.sasl_ssl.sasl.enabled.mechanisms", SCRAM_MECHANISM);
        p.put(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");

        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("allow.everyone.if.no.acl.found", "false");
        p.put("super.users", superUsers.stream().collect(Collectors.joining(";")));
        return p;
    }
}
