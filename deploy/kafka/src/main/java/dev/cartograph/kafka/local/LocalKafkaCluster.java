package dev.cartograph.kafka.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A real Apache Kafka cluster of several KRaft nodes in the current JVM, each a combined broker and
 * controller (every node is a voter of the controller quorum), listening only on
 * {@code 127.0.0.1}: for tests of what replication does when a broker fails. Configured like
 * {@link LocalKafka} (no automatic topic creation), with internal topics replicated
 * {@code min(3, nodes)} times and a broker fenced 6 s after its last heartbeat.
 *
 * <p><b>Failures.</b> {@link #kill(int)} stops one node abruptly, as close to a crash as one JVM
 * allows: no controlled shutdown (its partition leaders vanish; the controller fences the node when
 * its heartbeats stop and elects new leaders from the in-sync replicas), in-flight requests go
 * unanswered, and its clean-shutdown marker is removed, so {@link #restart(int)} recovers its logs
 * and registers it as after a crash. What stays orderly: the node's controller resigns quorum
 * leadership on the way out if it held it, and its written data is flushed (as the operating
 * system would after a process crash, though not after a power loss). With three nodes the quorum
 * and a majority of every partition's replicas survive one kill.
 *
 * <p><b>Layout.</b> Node {@code i} (1..n) keeps its logs in {@code dataDir/node-i}; the cluster id
 * is created on the first start and kept there. Ports (a client and a controller port per node)
 * are chosen when the cluster starts and kept across {@link #restart(int)}.
 *
 * <p><b>Thread safety.</b> The lifecycle methods are {@code synchronized};
 * {@link #bootstrapServers()} and {@link #bootstrapServers(int)} may be called at any time.
 */
public final class LocalKafkaCluster implements AutoCloseable {

    /** How long {@link #start} and {@link #restart(int)} wait for the nodes to serve clients. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final List<KafkaNode> nodes;
    private final String clusterId;

    private LocalKafkaCluster(List<KafkaNode> nodes, String clusterId) {
        this.nodes = List.copyOf(nodes);
        this.clusterId = clusterId;
    }

    /**
     * Starts {@code size} nodes on free ports of 127.0.0.1 and returns once every one of them is a
     * registered, unfenced broker. Formats their directories under {@code dataDir} first when they
     * hold no Kafka data yet.
     *
     * @param dataDir the cluster's directory (created if missing), owned by the cluster
     * @param size    the number of nodes, 1..9 (an odd number keeps a quorum with the most failures)
     */
    public static LocalKafkaCluster start(Path dataDir, int size) {
        Objects.requireNonNull(dataDir, "dataDir");
        if (size < 1 || size > 9) {
            throw new IllegalArgumentException("size must be 1..9: " + size);
        }
        List<KafkaNode> nodes = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < 2 * size) {
            int p = KafkaNode.freePort();
            if (!ports.contains(p)) {
                ports.add(p);
            }
        }
        for (int i = 1; i <= size; i++) {
            nodes.add(new KafkaNode(
                    i, dataDir.toAbsolutePath().resolve("node-" + i), ports.get(2 * i - 2), ports.get(2 * i - 1)));
        }
        String clusterId = Uuid.randomUuid().toString();
        List<String> held =
                nodes.stream().map(n -> n.formatIfNeeded(clusterId)).distinct().toList();
        if (held.size() != 1) {
            throw new IllegalStateException("the nodes under " + dataDir + " belong to different clusters: " + held);
        }
        LocalKafkaCluster cluster = new LocalKafkaCluster(nodes, held.get(0));
        cluster.startAll();
        return cluster;
    }

    /** The number of nodes, running or not. */
    public int size() {
        return nodes.size();
    }

    /** {@code bootstrap.servers} naming every node, so a client finds the cluster whichever nodes are up. */
    public String bootstrapServers() {
        return nodes.stream().map(KafkaNode::address).collect(Collectors.joining(","));
    }

    /** The client address of node {@code id} (1..size), e.g. {@code 127.0.0.1:40123}. */
    public String bootstrapServers(int id) {
        return node(id).address();
    }

    /** The KRaft cluster id, kept in the nodes' directories. */
    public String clusterId() {
        return clusterId;
    }

    public synchronized boolean isRunning(int id) {
        return node(id).running();
    }

    /** Creates each topic that does not exist yet, one partition, replicated {@code min(3, size)} times. */
    public void createTopics(String... topics) {
        createTopics(bootstrapServers(), Math.min(3, size()), List.of(topics));
    }

    /**
     * Stops node {@code id} abruptly (see the class comment for how close to a crash that is) and
     * waits until its server has stopped. Nothing if it is not running.
     */
    public synchronized void kill(int id) {
        node(id).kill();
    }

    /**
     * Starts node {@code id} again on its ports and its data, after {@link #kill(int)}, and returns
     * once it is a registered, unfenced broker again (its replicas may still be catching up).
     */
    public synchronized void restart(int id) {
        KafkaNode node = node(id);
        node.kill();
        node.start(node.serverProperties(nodes, false));
        awaitBrokers(bootstrapServers(), runningCount(), READY_TIMEOUT);
    }

    /**
     * Stops every node, all at once. Takes about 5 s: the last controller quorum leader waits that
     * long for a successor before it gives up its graceful resignation.
     */
    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        List<CompletableFuture<Void>> stops = nodes.stream()
                .map(n -> CompletableFuture.runAsync(n::stop, r -> daemon(r, n)))
                .toList();
        for (CompletableFuture<Void> stop : stops) {
            try {
                stop.join();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "LocalKafkaCluster[" + bootstrapServers() + "]";
    }

    private KafkaNode node(int id) {
        if (id < 1 || id > nodes.size()) {
            throw new IllegalArgumentException("no node " + id + ": nodes are 1.." + nodes.size());
        }
        return nodes.get(id - 1);
    }

    private int runningCount() {
        return (int) nodes.stream().filter(KafkaNode::running).count();
    }

    /** Every voter at once: a node's startup returns only when a quorum has elected a controller. */
    private synchronized void startAll() {
        List<CompletableFuture<Void>> starts = nodes.stream()
                .map(n ->
                        CompletableFuture.runAsync(() -> n.start(n.serverProperties(nodes, false)), r -> daemon(r, n)))
                .toList();
        try {
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new))
                    .get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            awaitBrokers(bootstrapServers(), nodes.size(), READY_TIMEOUT);
        } catch (Exception e) {
            try {
                close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(
                    "the Kafka cluster under " + nodes.get(0).dataDir().getParent() + " did not start",
                    e instanceof ExecutionException ? e.getCause() : e);
        }
    }

    private static void daemon(Runnable r, KafkaNode node) {
        Thread t = new Thread(r, "local-kafka-node-" + node.id());
        t.setDaemon(true);
        t.start();
    }

    /** Waits until {@code expected} brokers are registered and unfenced, through a real client round trip. */
    static void awaitBrokers(String bootstrap, int expected, Duration timeout) {
        awaitBrokers(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), expected, timeout);
    }

    /** {@link #awaitBrokers(String, int, Duration)} for a client with these settings (servers, security). */
    static void awaitBrokers(Map<String, String> client, int expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String bootstrap = client.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        Map<String, Object> conf = new HashMap<>(client);
        conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        int seen = 0;
        try (Admin admin = Admin.create(conf)) {
            while (true) {
                seen = admin.describeCluster()
                        .nodes()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .size();
                if (seen >= expected) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            seen + " of " + expected + " Kafka brokers at " + bootstrap + " after " + timeout);
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for Kafka at " + bootstrap, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer on " + bootstrap, e);
        }
    }

    static void createTopics(String bootstrap, int replicas, Collection<String> topics) {
        createTopics(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), replicas, topics);
    }

    /** {@link #createTopics(String, int, Collection)} by a client with these settings (servers, security). */
    static void createTopics(Map<String, String> client, int replicas, Collection<String> topics) {
        String bootstrap = client.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        List<NewTopic> wanted =
                topics.stream().map(t -> new NewTopic(t, 1, (short) replicas)).toList();
        try (Admin admin = Admin.create(new HashMap<>(client))) {
            for (var created : admin.createTopics(wanted).values().entrySet()) {
                try {
                    created.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException(
                                "cannot create topic " + created.getKey() + " at " + bootstrap, e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topics at " + bootstrap, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Kafka at " + bootstrap + " did not create " + topics + " within 30 s", e);
        }
    }
}
