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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * One KRaft node of a local Kafka (combined broker and controller) running in this JVM: its id,
 * ports of 127.0.0.1, log directory and, while running, Kafka's own {@code KafkaRaftServer}.
 * Not thread-safe: its owner ({@link LocalKafka}, {@link LocalKafkaCluster}) serialises calls.
 */
final class KafkaNode {
    static final String HOST = "127.0.0.1";
    /** Written by Kafka's log manager on a clean shutdown ({@code CleanShutdownFileHandler.CLEAN_SHUTDOWN_FILE_NAME}). */
    static final String CLEAN_SHUTDOWN_MARKER = ".kafka_cleanshutdown";

    private final int id;
    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final Optional<SecureListeners> secure;
    private KafkaRaftServer server;

    /** A plaintext node: PLAINTEXT clients on {@code port}, and anyone may do anything. */
    KafkaNode(int id, Path dataDir, int port, int controllerPort) {
        this(id, dataDir, port, controllerPort, Optional.empty());
    }

    /** A node whose listeners are {@code secure}'s when present (then {@code port} is the SASL_SSL port). */
    KafkaNode(int id, Path dataDir, int port, int controllerPort, Optional<SecureListeners> secure) {
        this.id = id;
        this.dataDir = dataDir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.secure = secure;
    }

    int id() {
        return id;
    }

    Path dataDir() {
        return dataDir;
    }

    int port() {
        return port;
    }

    /** {@code 127.0.0.1:port}, this node's client listener. */
    String address() {
        return HOST + ":" + port;
    }

    /** This node in {@code controller.quorum.voters} form: {@code id@127.0.0.1:controllerPort}. */
    String voter() {
        return id + "@" + HOST + ":" + controllerPort;
    }

    boolean running() {
        return server != null;
    }

    /**
     * Formats the data directory for {@code clusterId} unless it already holds a
     * {@code meta.properties} (then Kafka's own startup checks validate it), like
     * {@code kafka-storage.sh format} on a fresh node. Returns the cluster id the directory holds.
     */
    String formatIfNeeded(String clusterId) {
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dataDir, e);
        }
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
                .setNodeId(id)
                .setClusterId(clusterId)
                .setControllerListenerName("CONTROLLER")
                .setMetadataLogDirectory(dataDir.toString()) // the metadata log shares the only log dir
                .addDirectory(dataDir.toString());
        try {
            formatter.run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + dataDir, e);
        }
        return clusterId;
    }

    /**
     * Starts the server and returns once its broker has caught up with the metadata log and was
     * unfenced (which needs a controller quorum: in a cluster, start the voters concurrently).
     */
    void start(Map<String, String> serverProperties) {
        if (server != null) {
            throw new IllegalStateException("node " + id + " is already running");
        }
        KafkaRaftServer started = new KafkaRaftServer(new KafkaConfig(serverProperties, false), Time.SYSTEM);
        try {
            started.startup();
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

    /** Shuts the server down and waits for it; nothing if it is not running. */
    void stop() {
        KafkaRaftServer running = server;
        if (running == null) {
            return;
        }
        server = null;
        running.shutdown();
        running.awaitShutdown();
    }

    /**
     * Stops the server, then removes the clean-shutdown marker its log manager wrote, so the next
     * start recovers the logs and registers with the controller as after a crash.
     */
    void kill() {
        stop();
        try {
            Files.deleteIfExists(dataDir.resolve(CLEAN_SHUTDOWN_MARKER));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the clean-shutdown marker in " + dataDir, e);
        }
    }

    /**
     * The server configuration, as strings like a server.properties file (KafkaConfig wants e.g.
     * shorts, not ints): automatic topic creation off; internal topics replicated
     * {@code min(3, nodes)} times; plaintext listeners unless the node is secure.
     *
     * @param voters     every node of the cluster, this one included
     * @param controlled whether a stop moves leadership away first (a controlled shutdown)
     */
    Map<String, String> serverProperties(List<KafkaNode> voters, boolean controlled) {
        String replicas = String.valueOf(Math.min(3, voters.size()));
        String minIsr = String.valueOf(Math.min(2, voters.size()));
        Map<String, String> p = new HashMap<>();
        p.put("node.id", String.valueOf(id));
        p.put("process.roles", "broker,controller");
        p.put("controller.quorum.voters", voters.stream().map(KafkaNode::voter).collect(Collectors.joining(",")));
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listeners", "PLAINTEXT://" + address() + ",CONTROLLER://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + address());
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dataDir.toString());
        p.put("controlled.shutdown.enable", String.valueOf(controlled));
        secure.ifPresent(s -> p.putAll(s.serverProperties(HOST, port, controllerPort)));

        // topics are created on purpose, with the settings their owner chose (issue 11)
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", replicas);
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", replicas);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        if (voters.size() > 1) {
            // a node that stops heartbeating is fenced (and dropped from every ISR) after 6 s, not 9 s
            p.put("broker.heartbeat.interval.ms", "1000");
            p.put("broker.session.timeout.ms", "6000");
            p.put("replica.lag.time.max.ms", "10000");
        }

        // small footprint: one JVM may run several of these next to the code under test
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("log.cleaner.dedupe.buffer.size", "8388608"); // default 128 MiB, allocated up front
        return p;
    }

    @Override
    public String toString() {
        return "node " + id + " (" + address() + ", " + dataDir + ")";
    }

    /** A port free right now on 127.0.0.1 (another process could still take it before Kafka binds it). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST, e);
        }
    }
}
