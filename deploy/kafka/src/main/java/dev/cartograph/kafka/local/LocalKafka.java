package dev.cartograph.kafka.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * A real, single-node Apache Kafka broker (KRaft mode, combined broker and controller) running
 * inside the current JVM, listening only on {@code 127.0.0.1}, configured for tests and local demos:
 * replication factor 1 everywhere (including the internal {@code __consumer_offsets} and
 * {@code __transaction_state} topics), no initial group rebalance delay, and <b>no automatic topic
 * creation</b>: like a production cluster configured for durability, it only has the topics someone
 * created (the Cartograph broker creates its own; a test without a broker uses
 * {@link #createTopics}). {@link LocalKafkaCluster} runs several nodes.
 *
 * <p><b>Secure mode.</b> {@link #start} listens in PLAINTEXT and allows anyone everything;
 * {@link #startSecure} runs the same broker with TLS on every listener, SCRAM and mutual-TLS client
 * identities and an authorizer that denies whatever no ACL allows, for tests of Kafka security;
 * {@link #secure()} hands out each identity's client settings.
 *
 * <p>The broker is Kafka's own {@code kafka.server.KafkaRaftServer} (what {@code kafka.Kafka}
 * runs), and its storage is formatted with {@code org.apache.kafka.metadata.storage.Formatter}
 * (what {@code kafka-storage.sh format} runs). The first start on an empty data directory formats
 * it with a new cluster id; later starts on the same directory (in this JVM or another one) reuse
 * it, so topics, records and committed consumer-group offsets survive {@link #stop()} /
 * {@link #restart()}.
 *
 * <p><b>Ports.</b> Two ports of 127.0.0.1: the client port ({@link #bootstrapServers()}) and a
 * KRaft controller port, which clients never need. Free ports are found by binding port 0 and
 * releasing it, so another process could in principle take one before Kafka binds it; start then
 * fails with a bind error. {@link #restart()} keeps both ports; a new {@code start} on an existing
 * data directory may pick new ones (the cluster, topics and offsets are unaffected).
 *
 * <p><b>Ownership.</b> The instance owns its data directory while running: nothing else may write
 * to it, at most one broker may use it at a time, and it must not be deleted before {@link #close()}
 * returns (Kafka treats a vanishing log directory as a fatal disk failure and halts the JVM).
 * Kafka's server also halts the JVM on other fatal internal errors; that is Kafka's behaviour,
 * not changed here. Several instances with different data directories may run in one JVM.
 *
 * <p><b>Thread safety.</b> The lifecycle methods ({@link #stop()}, {@link #restart()},
 * {@link #close()}) are {@code synchronized}; {@link #bootstrapServers()} may be called from any
 * thread at any time. Clients connected during a stop simply reconnect after the restart.
 */
public final class LocalKafka implements AutoCloseable {

    /** How long {@link #start} and {@link #restart} wait for the broker to answer clients. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private static final int NODE_ID = 1;

    private final KafkaNode node;
    private final Optional<SecureClients> secure;
    private volatile String clusterId;

    private LocalKafka(KafkaNode node, Optional<SecureClients> secure) {
        this.node = node;
        this.secure = secure;
    }

    /**
     * Starts a broker on a free port of 127.0.0.1, formatting {@code dataDir} first if it holds
     * no Kafka data yet. Returns once the broker accepts clients.
     *
     * @param dataDir the broker's log directory (created if missing), owned by the broker
     */
    public static LocalKafka start(Path dataDir) {
        return start(dataDir, KafkaNode.freePort());
    }

    /**
     * Starts a broker on the given port of 127.0.0.1 (the KRaft controller listener takes another,
     * free port), formatting {@code dataDir} first if it holds no Kafka data yet. Returns once the
     * broker accepts clients.
     *
     * @param dataDir the broker's log directory (created if missing), owned by the broker
     * @param port the client port, 1..65535
     */
    public static LocalKafka start(Path dataDir, int port) {
        Objects.requireNonNull(dataDir, "dataDir");
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1..65535: " + port);
        }
        LocalKafka kafka = new LocalKafka(
                new KafkaNode(NODE_ID, dataDir.toAbsolutePath(), port, freePortOtherThan(port)), Optional.empty());
        kafka.startServer();
        return kafka;
    }

    /**
     * Starts a <b>secure</b> broker on free ports of 127.0.0.1: TLS on every listener (a throwaway
     * {@link LocalPki} CA in {@code dir/pki}), SCRAM-SHA-512 users on the {@code SASL_SSL} listener
     * ({@link #bootstrapServers()}), certificate identities on a mutual-TLS {@code SSL} listener
     * (a certificate {@code CN=agent-a} is principal {@code User:agent-a}), and Kafka's
     * {@code StandardAuthorizer} denying whatever no ACL allows ({@code allow.everyone.if.no.acl.found=false});
     * the super users are the node itself ({@code User:kafka-broker}) and {@code User:admin}.
     * {@link #secure()} gives each identity's client settings. Same durability settings as {@link #start(Path)}.
     *
     * @param dir a directory owned by the broker (created if missing): logs in {@code dir/data}, stores in {@code dir/pki}
     */
    public static LocalKafka startSecure(Path dir) {
        Objects.requireNonNull(dir, "dir");
        Path root = dir.toAbsolutePath();
        LocalPki pki = LocalPki.open(root.resolve("pki"));
        Path serverStore = pki.keyStore(SecureClients.BROKER_NAME, List.of("dns:localhost", "ip:" + KafkaNode.HOST));
        int saslPort = KafkaNode.freePort();
        int sslPort = freePortOtherThan(saslPort);
        int controllerPort;
        do {
            controllerPort = KafkaNode.freePort();
        } while (controllerPort == saslPort || controllerPort == sslPort);
        SecureListeners listeners = new SecureListeners(
                sslPort,
                serverStore,
                pki.trustStore(),
                pki.password(),
                List.of("User:" + SecureClients.BROKER_NAME, "User:" + SecureClients.ADMIN_NAME));
        KafkaNode node = new KafkaNode(NODE_ID, root.resolve("data"), saslPort, controllerPort, Optional.of(listeners));
        LocalKafka kafka = new LocalKafka(
                node, Optional.of(new SecureClients(pki, node.address(), KafkaNode.HOST + ":" + sslPort)));
        kafka.startServer();
        return kafka;
    }

    /**
     * The {@code bootstrap.servers} value for clients, e.g. {@code 127.0.0.1:40123}: the PLAINTEXT
     * listener, or a secure broker's SASL_SSL listener.
     */
    public String bootstrapServers() {
        return node.address();
    }

    /**
     * Settings for a client allowed everything: {@code bootstrap.servers} alone for a plaintext
     * broker, the administrator's (a super user, by certificate) for a secure one.
     */
    public Map<String, String> clientSettings() {
        return secure.map(SecureClients::admin).orElseGet(() -> Map.of("bootstrap.servers", bootstrapServers()));
    }

    /**
     * The client settings of each identity of a broker started with {@link #startSecure}.
     *
     * @throws IllegalStateException for a plaintext broker
     */
    public SecureClients secure() {
        return secure.orElseThrow(() -> new IllegalStateException(this + " is plaintext: start it with startSecure"));
    }

    /** The client port; stays the same across {@link #restart()}. */
    public int port() {
        return node.port();
    }

    /** The data (log) directory of this broker. */
    public Path dataDir() {
        return node.dataDir();
    }

    /** The KRaft cluster id, set on the first start of the data directory and kept across restarts. */
    public String clusterId() {
        return clusterId;
    }

    /** Whether the broker is running (started and not stopped). */
    public synchronized boolean isRunning() {
        return node.running();
    }

    /**
     * Creates each topic that does not exist yet, with one partition and replication factor 1
     * (for tests and tools that run without the Cartograph broker, which creates its own topics;
     * on a secure broker, as the administrator).
     * Returns once Kafka has them.
     */
    public void createTopics(String... topics) {
        LocalKafkaCluster.createTopics(clientSettings(), 1, List.of(topics));
    }

    /**
     * Shuts the broker down cleanly (flushing logs, writing the clean-shutdown marker) and waits
     * for it. Does nothing if it is already stopped. The data directory stays as it is.
     */
    public synchronized void stop() {
        node.stop();
    }

    /**
     * Stops the broker if it is running, then starts it again on the same ports and the same data
     * directory, and waits until it accepts clients.
     */
    public synchronized void restart() {
        stop();
        startServer();
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "LocalKafka[" + bootstrapServers() + ", " + dataDir() + "]";
    }

    private synchronized void startServer() {
        clusterId = node.formatIfNeeded(Uuid.randomUuid().toString());
        node.start(node.serverProperties(List.of(node), true));
        try {
            // belt and braces after startup(): a real client round trip through the client listener
            LocalKafkaCluster.awaitBrokers(clientSettings(), 1, READY_TIMEOUT);
        } catch (RuntimeException e) {
            try {
                node.stop();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static int freePortOtherThan(int port) {
        int p;
        do {
            p = KafkaNode.freePort();
        } while (p == port);
        return p;
    }
}
