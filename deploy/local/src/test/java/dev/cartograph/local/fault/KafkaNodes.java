package dev.cartograph.local.fault;

import dev.cartograph.kafka.local.ClientListener;
import dev.cartograph.local.fault.net.TcpProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka cluster of three KRaft nodes, each a child JVM ({@code dev.cartograph.kafka.local.NodeMain}),
 * killed with SIGKILL and started again on the same ports and data. Each named client (a broker replica's slot, an
 * agent) reaches the nodes through a listener of its own behind a {@link TcpProxy} per node, so {@link #link} cuts one
 * client off from Kafka, one way or both, while the nodes and the other clients still talk. Thread-safe: lifecycle
 * methods are synchronized.
 */
final class KafkaNodes implements AutoCloseable {
    static final int SIZE = 3;
    private static final String HOST = "127.0.0.1";

    private final Path data;
    private final Path logs;
    private final Classpath classpath;
    private final String clusterId = Uuid.randomUuid().toString();
    private final int[] ports = new int[SIZE + 1];
    private final int[] controllerPorts = new int[SIZE + 1];
    private final ChildJvm[] nodes = new ChildJvm[SIZE + 1];
    private final int[] starts = new int[SIZE + 1];
    /** Per client, its listener's port on each node (index 1..SIZE); {@link #links} holds the proxies in front. */
    private final Map<String, int[]> clientPorts = new LinkedHashMap<>();

    private final Map<String, Link> links = new LinkedHashMap<>();

    private KafkaNodes(Path data, Path logs, Classpath classpath, List<String> clients) {
        this.data = data;
        this.logs = logs;
        this.classpath = classpath;
        Set<Integer> chosen = new LinkedHashSet<>();
        while (chosen.size() < (2 + clients.size()) * SIZE) {
            chosen.add(freePort());
        }
        java.util.Iterator<Integer> free = chosen.iterator();
        for (int id = 1; id <= SIZE; id++) {
            ports[id] = free.next();
            controllerPorts[id] = free.next();
        }
        for (String client : clients) {
            int[] listenerPorts = new int[SIZE + 1];
            List<TcpProxy> proxies = new ArrayList<>();
            for (int id = 1; id <= SIZE; id++) {
                listenerPorts[id] = free.next();
                proxies.add(TcpProxy.start(new InetSocketAddress(HOST, listenerPorts[id])));
            }
            clientPorts.put(client, listenerPorts);
            links.put(client, new Link("kafka for " + client, proxies));
        }
    }

    /**
     * Starts every node at once (a node's first start waits for a quorum); {@link #awaitBrokers} waits until they serve.
     *
     * @param clients the clients that reach Kafka through a link of their own ({@link #bootstrapServers(String)})
     */
    static KafkaNodes start(Path data, Path logs, Classpath classpath, List<String> clients) {
        KafkaNodes k = new KafkaNodes(data, logs, classpath, clients);
        IntStream.rangeClosed(1, SIZE).forEach(k::launch);
        return k;
    }

    /** The nodes' own listeners: for the harness (admin, journal), never cut. */
    String bootstrapServers() {
        return IntStream.rangeClosed(1, SIZE)
                .mapToObj(id -> HOST + ":" + ports[id])
                .collect(Collectors.joining(","));
    }

    /** Where {@code client} bootstraps: its proxies, whose addresses the nodes advertise to it. */
    String bootstrapServers(String client) {
        return link(client).proxies().stream().map(p -> HOST + ":" + p.port()).collect(Collectors.joining(","));
    }

    /** The link between {@code client} and every node. */
    Link link(String client) {
        Link link = links.get(client);
        if (link == null) {
            throw new IllegalArgumentException("no Kafka client " + client + "; clients are " + links.keySet());
        }
        return link;
    }

    /** {@code gpu-east} → {@code C_GPU_EAST}: a listener name as Kafka accepts it. */
    private static String listenerName(String client) {
        return "C_" + client.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    synchronized boolean running(int id) {
        return nodes[id] != null && nodes[id].alive();
    }

    /** Whether node {@code id} runs and has said it is a registered, unfenced broker (NodeMain's "ready" line). */
    synchronized boolean ready(int id) {
        return running(id) && nodes[id].logged("kafka node " + id + " ready at");
    }

    /** SIGKILL node {@code id}. */
    synchronized void kill(int id) {
        nodes[id].kill();
    }

    /** Sends node {@code id} a signal ({@code STOP}, {@code CONT}). */
    synchronized void signal(int id, String signal) {
        nodes[id].signal(signal);
    }

    /** Starts node {@code id} again on its data (it recovers its logs as after a crash); does not wait. */
    synchronized void restart(int id) {
        if (running(id)) {
            throw new IllegalStateException("kafka node " + id + " is running");
        }
        launch(id);
    }

    private void launch(int id) {
        starts[id]++;
        String voters = IntStream.rangeClosed(1, SIZE)
                .mapToObj(n -> n + "@" + HOST + ":" + controllerPorts[n])
                .collect(Collectors.joining(","));
        List<String> args = new ArrayList<>(List.of(
                "--id",
                String.valueOf(id),
                "--data",
                data.resolve("node-" + id).toString(),
                "--port",
                String.valueOf(ports[id]),
                "--cluster-id",
                clusterId,
                "--voters",
                voters));
        clientPorts.forEach((client, listenerPorts) -> {
            args.add("--listener");
            args.add(new ClientListener(
                            listenerName(client),
                            listenerPorts[id],
                            link(client).proxies().get(id - 1).port())
                    .argument());
        });
        nodes[id] = ChildJvm.start(
                "kafka-" + id + "-" + starts[id],
                "dev.cartograph.kafka.local.NodeMain",
                "512m",
                Map.of(),
                args,
                logs,
                classpath);
    }

    /** Waits until {@code expected} brokers are registered and unfenced. */
    void awaitBrokers(int expected, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                int seen = -1;
                try {
                    seen = admin.describeCluster()
                            .nodes()
                            .get(5, TimeUnit.SECONDS)
                            .size();
                    if (seen >= expected) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not answering yet
                }
                if (System.nanoTime() > end) {
                    throw new IllegalStateException(
                            seen + " of " + expected + " Kafka brokers after " + timeout + "; logs in " + logs);
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * Waits until every partition of every topic has all its replicas in sync (so that killing another node leaves
     * two); returns false if that did not happen within {@code timeout}.
     */
    boolean awaitInSync(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (System.nanoTime() < end) {
                try {
                    Set<String> names = admin.listTopics().names().get(5, TimeUnit.SECONDS);
                    Map<String, TopicDescription> topics =
                            admin.describeTopics(names).allTopicNames().get(5, TimeUnit.SECONDS);
                    boolean inSync = topics.values().stream()
                            .flatMap(t -> t.partitions().stream())
                            .allMatch((TopicPartitionInfo p) ->
                                    p.isr().size() == p.replicas().size());
                    if (inSync) {
                        return true;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // ask again
                }
                Thread.sleep(250);
            }
            return false;
        }
    }

    /**
     * Waits until no transaction is open on {@code topic} (its last stable offset is its high watermark: every record
     * in it is committed or aborted, and a read_committed reader sees all that was committed); false if that did not
     * happen within {@code timeout}. A transaction left open by a producer cut off is aborted by Kafka after the
     * transaction timeout.
     */
    boolean awaitSettled(String topic, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (System.nanoTime() < end) {
                try {
                    TopicDescription d = admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get(5, TimeUnit.SECONDS)
                            .get(topic);
                    Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest =
                            new HashMap<>();
                    d.partitions()
                            .forEach(p -> latest.put(
                                    new org.apache.kafka.common.TopicPartition(topic, p.partition()),
                                    org.apache.kafka.clients.admin.OffsetSpec.latest()));
                    var committed = admin.listOffsets(
                                    latest,
                                    new org.apache.kafka.clients.admin.ListOffsetsOptions(
                                            org.apache.kafka.common.IsolationLevel.READ_COMMITTED))
                            .all()
                            .get(5, TimeUnit.SECONDS);
                    var written = admin.listOffsets(latest).all().get(5, TimeUnit.SECONDS);
                    if (latest.keySet().stream()
                            .allMatch(tp -> committed.get(tp).offset()
                                    == written.get(tp).offset())) {
                        return true;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // ask again
                }
                Thread.sleep(200);
            }
            return false;
        }
    }

    /**
     * Deletes {@code spec}'s topic, waits until Kafka no longer lists it, and creates it again empty from {@code spec}:
     * what an operator's restore, or a Kafka rebuilt from nothing, leaves behind.
     */
    void recreate(org.apache.kafka.clients.admin.NewTopic spec) throws InterruptedException {
        try (Admin admin = admin()) {
            admin.deleteTopics(List.of(spec.name())).all().get(30, TimeUnit.SECONDS);
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(spec.name())) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException(spec.name() + " still listed 30 s after its deletion");
                }
                Thread.sleep(100);
            }
            while (true) {
                try {
                    admin.createTopics(List.of(spec)).all().get(30, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)
                            || System.nanoTime() > end) { // exists: the deletion is not complete on every node yet
                        throw new IllegalStateException("cannot create " + spec.name() + " again", e);
                    }
                    Thread.sleep(200);
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot delete " + spec.name(), e);
        }
    }

    private Admin admin() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        return Admin.create(conf);
    }

    @Override
    public synchronized void close() {
        for (int id = 1; id <= SIZE; id++) {
            if (nodes[id] != null) {
                nodes[id].kill();
            }
        }
        links.values().forEach(Link::close);
    }

    /**
     * A port free now and below the kernel's ephemeral range, so that no socket bound to port 0 — a proxy, any
     * client's outgoing connection — takes it before the node binds it (seed 125 lost a node that way: "Socket
     * server failed to bind … Address already in use"). A node binds its ports again on every restart.
     */
    private static int freePort() {
        int below = ephemeralLow();
        for (int tries = 0; tries < 1_000; tries++) {
            int port = 10_000 + PORTS.nextInt(below - 10_000);
            try (ServerSocket s = new ServerSocket(port, 0, InetAddress.getByName(HOST))) {
                return s.getLocalPort();
            } catch (IOException e) {
                // taken: draw another
            }
        }
        throw new IllegalStateException("no free port on " + HOST + " between 10000 and " + below);
    }

    private static final java.util.Random PORTS = new java.util.Random();

    /** The lowest ephemeral port ({@code /proc/sys/net/ipv4/ip_local_port_range}), 32768 where it cannot be read. */
    private static int ephemeralLow() {
        try {
            String range = java.nio.file.Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
            int low = Integer.parseInt(range.strip().split("\\s+")[0]);
            return low > 11_000 ? low : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
