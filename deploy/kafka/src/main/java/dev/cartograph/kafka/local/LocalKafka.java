package dev.cartograph.kafka.local;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A real, single-node Apache Kafka broker (KRaft mode, combined broker and controller) running
 * inside the current JVM, listening only on {@code 127.0.0.1}, configured for tests and local demos:
 * one partition per auto-created topic, replication factor 1 everywhere (including the internal
 * {@code __consumer_offsets} and {@code __transaction_state} topics), no initial group rebalance
 * delay, automatic topic creation on.
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
    private static final String HOST = "127.0.0.1";
    private static final int NODE_ID = 1;

    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private volatile String clusterId;
    private KafkaRaftServer server;

    private LocalKafka(Path dataDir, int port, int controllerPort) {
        this.dataDir = dataDir;
        this.port = port;
        this.controllerPort = controllerPort;
    }

    /**
     * Starts a broker on a free port of 127.0.0.1, formatting {@code dataDir} first if it holds
     * no Kafka data yet. Returns once the broker accepts clients.
     *
     * @param dataDir the broker's log directory (created if missing), owned by the broker
     */
    public static LocalKafka start(Path dataDir) {
        return start(dataDir, freePort());
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
        LocalKafka kafka = new LocalKafka(dataDir.toAbsolutePath(), port, freePortOtherThan(port));
        kafka.startServer();
        return kafka;
    }

    /** The {@code bootstrap.servers} value for clients, e.g. {@code 127.0.0.1:40123}. */
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    /** The client port; stays the same across {@link #restart()}. */
    public int port() {
        return port;
    }

    /** The data (log) directory of this broker. */
    public Path dataDir() {
        return dataDir;
    }

    /** The KRaft cluster id, set on the first start of the data directory and kept across restarts. */
    public String clusterId() {
        return clusterId;
    }

    /** Whether the broker is running (started and not stopped). */
    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * Shuts the broker down cleanly (flushing logs, writing the clean-shutdown marker) and waits
     * for it. Does nothing if it is already stopped. The data directory stays as it is.
     */
    public synchronized void stop() {
        KafkaRaftServer running = server;
        if (running == null) {
            return;
        }
        server = null;
        running.shutdown();
        running.awaitShutdown();
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
        return "LocalKafka[" + bootstrapServers() + ", " + dataDir + "]";
    }

    private synchronized void startServer() {
        if (server != null) {
            throw new IllegalStateException("already running: " + this);
        }
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dataDir, e);
        }
        KafkaConfig config = new KafkaConfig(serverProperties(), false);
        clusterId = formatIfNeeded();
        KafkaRaftServer started = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            // returns once the broker caught up with the metadata log and was unfenced
            started.startup();
            awaitClients();
        } catch (RuntimeException | Error e) {
            try {
                started.shutdown();
                started.awaitShutdown();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        server = started;
    }

    /** The server configuration, as strings like a server.properties file (KafkaConfig wants e.g. shorts, not ints). */
    private Map<String, String> serverProperties() {
        Map<String, String> p = new HashMap<>();
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("process.roles", "broker,controller");
        p.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dataDir.toString());

        p.put("auto.create.topics.enable", "true");
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");

        // small footprint: one JVM may run several of these next to the code under test
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("log.cleaner.dedupe.buffer.size", "8388608"); // default 128 MiB, allocated up front
        return p;
    }

    /**
     * Formats the data directory with a new cluster id unless it already holds a
     * {@code meta.properties} (then Kafka's own startup checks validate it), like
     * {@code kafka-storage.sh format} on a fresh node. Returns the cluster id.
     */
    private String formatIfNeeded() {
        Path meta = dataDir.resolve(MetaPropertiesEnsemble.META_PROPERTIES_NAME);
        if (Files.exists(meta)) {
            Properties properties = new Properties();
            try (Reader in = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + meta, e);
            }
            return properties.getProperty("cluster.id");
        }
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(NODE_ID)
                .setClusterId(Uuid.randomUuid().toString())
                .setControllerListenerName("CONTROLLER")
                .setMetadataLogDirectory(dataDir.toString()) // the metadata log shares the only log dir
                .addDirectory(dataDir.toString());
        try {
            formatter.run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + dataDir, e);
        }
        return formatter.clusterId();
    }

    /** Belt and braces after startup(): a real client round trip through the client listener. */
    private void awaitClients() {
        Map<String, Object> conf = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READY_TIMEOUT.toMillis());
        try (Admin admin = Admin.create(conf)) {
            admin.describeCluster().nodes().get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + this, e);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka broker did not answer on " + bootstrapServers(), e);
        }
    }

    private static int freePortOtherThan(int port) {
        int p;
        do {
            p = freePort();
        } while (p == port);
        return p;
    }

    /** A port free right now on 127.0.0.1 (another process could still take it before Kafka binds it). */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST, e);
        }
    }
}
