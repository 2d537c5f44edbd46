package dev.cartograph.local.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * killed with SIGKILL and started again on the same ports and data. Thread-safe: lifecycle methods
 * are synchronized.
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

    private KafkaNodes(Path data, Path logs, Classpath classpath) {
        this.data = data;
        this.logs = logs;
        this.classpath = classpath;
        Set<Integer> chosen = new LinkedHashSet<>();
        while (chosen.size() < 2 * SIZE) {
            chosen.add(freePort());
        }
        List<Integer> free = new ArrayList<>(chosen);
        for (int id = 1; id <= SIZE; id++) {
            ports[id] = free.get(2 * id - 2);
            controllerPorts[id] = free.get(2 * id - 1);
        }
    }

    /** Starts every node at once (a node's first start waits for a quorum); {@link #awaitBrokers} waits until they serve. */
    static KafkaNodes start(Path data, Path logs, Classpath classpath) {
        KafkaNodes k = new KafkaNodes(data, logs, classpath);
        IntStream.rangeClosed(1, SIZE).forEach(k::launch);
        return k;
    }

    String bootstrapServers() {
        return IntStream.rangeClosed(1, SIZE)
                .mapToObj(id -> HOST + ":" + ports[id])
                .collect(Collectors.joining(","));
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
        nodes[id] = ChildJvm.start(
                "kafka-" + id + "-" + starts[id],
                "dev.cartograph.kafka.local.NodeMain",
                "512m",
                Map.of(),
                List.of(
                        "--id",
                        String.valueOf(id),
                        "--data",
                        data.resolve("node-" + id).toString(),
                        "--port",
                        String.valueOf(ports[id]),
                        "--cluster-id",
                        clusterId,
                        "--voters",
                        voters),
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
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 0, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST, e);
        }
    }
}
