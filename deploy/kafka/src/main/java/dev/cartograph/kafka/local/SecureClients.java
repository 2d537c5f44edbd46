package dev.cartograph.kafka.local;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * The Kafka client settings of one identity at a time for a secure {@link LocalKafka} (see
 * {@link LocalKafka#startSecure}): a SCRAM user on the {@code SASL_SSL} listener, a certificate
 * identity on the mutual-TLS {@code SSL} listener, or the administrator (a super user, by
 * certificate). Each map is complete (servers, protocol, stores, credentials) and can be handed to a
 * Kafka client or to an agent's or broker's {@code kafka} settings as it is.
 *
 * <p>Thread-safe: users are created at most once each; settings maps are new and immutable.
 */
public final class SecureClients {

    /** The node's own identity (its certificate's CN): a super user. */
    public static final String BROKER_NAME = "kafka-broker";
    /** The administrator's identity (its certificate's CN): a super user. */
    public static final String ADMIN_NAME = "admin";

    private static final Duration PROPAGATION_TIMEOUT = Duration.ofSeconds(30);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final LocalPki pki;
    private final String saslSslServers;
    private final String sslServers;
    private final Map<String, String> scramPasswords = new ConcurrentHashMap<>();

    SecureClients(LocalPki pki, String saslSslServers, String sslServers) {
        this.pki = pki;
        this.saslSslServers = saslSslServers;
        this.sslServers = sslServers;
    }

    /** The certificate authority every certificate of this Kafka chains to. */
    public LocalPki pki() {
        return pki;
    }

    /** The SCRAM listener, {@code 127.0.0.1:port} (server TLS, SASL SCRAM-SHA-512). */
    public String saslSslBootstrapServers() {
        return saslSslServers;
    }

    /** The mutual-TLS listener, {@code 127.0.0.1:port} (a client certificate is required). */
    public String sslBootstrapServers() {
        return sslServers;
    }

    /** The administrator's settings: mutual TLS as {@code User:admin}, a super user. */
    public Map<String, String> admin() {
        return tls(ADMIN_NAME);
    }

    /**
     * The settings of SCRAM user {@code user} ({@code User:user}) on the SASL_SSL listener; the user
     * is created with a random password on the first call (by the administrator, through
     * {@code Admin#alterUserScramCredentials}, as an operator would) and returns once the broker knows it.
     */
    public Map<String, String> scram(String user) {
        String password = scramPasswords.computeIfAbsent(user, this::createScramUser);
        Map<String, String> settings = trusting(saslSslServers, SecureListeners.SASL_SSL);
        settings.put("sasl.mechanism", SecureListeners.SCRAM_MECHANISM);
        settings.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        return Map.copyOf(settings);
    }

    /**
     * The settings of certificate identity {@code CN=commonName} ({@code User:commonName}) on the
     * mutual-TLS listener; the certificate is issued on the first call.
     */
    public Map<String, String> tls(String commonName) {
        Map<String, String> settings = trusting(sslServers, SecureListeners.SSL);
        settings.put(
                "ssl.keystore.location", pki.keyStore(commonName, List.of()).toString());
        settings.put("ssl.keystore.type", pki.storeType());
        settings.put("ssl.keystore.password", pki.password());
        settings.put("ssl.key.password", pki.password());
        return Map.copyOf(settings);
    }

    /** Settings for the mutual-TLS listener that trust the server but present no certificate (refused). */
    public Map<String, String> tlsWithoutCertificate() {
        return Map.copyOf(trusting(sslServers, SecureListeners.SSL));
    }

    /**
     * Creates {@code acls} as the administrator and returns once the broker's authorizer applies
     * them (its {@code DescribeAcls} answer lists them all).
     */
    public void createAcls(Collection<AclBinding> acls) {
        try (Admin admin = Admin.create(new HashMap<>(admin()))) {
            admin.createAcls(acls).all().get(PROPAGATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + PROPAGATION_TIMEOUT.toNanos();
            while (!new HashSet<>(admin.describeAcls(AclBindingFilter.ANY)
                            .values()
                            .get(PROPAGATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                    .containsAll(Set.copyOf(acls))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the broker did not apply " + acls + " in " + PROPAGATION_TIMEOUT);
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating ACLs", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create ACLs " + acls, e);
        }
    }

    private Map<String, String> trusting(String servers, String protocol) {
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", servers);
        settings.put("security.protocol", protocol);
        settings.put("ssl.truststore.location", pki.trustStore().toString());
        settings.put("ssl.truststore.type", pki.storeType());
        settings.put("ssl.truststore.password", pki.password());
        return settings;
    }

    private String createScramUser(String user) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        String password = HexFormat.of().formatHex(bytes);
        try (Admin admin = Admin.create(new HashMap<>(admin()))) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password)))
                    .all()
                    .get(PROPAGATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + PROPAGATION_TIMEOUT.toNanos();
            while (!admin.describeUserScramCredentials()
                    .users()
                    .get(PROPAGATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .contains(user)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the broker did not learn SCRAM user " + user);
                }
                Thread.sleep(50);
            }
            return password;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating SCRAM user " + user, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create SCRAM user " + user, e);
        }
    }
}
